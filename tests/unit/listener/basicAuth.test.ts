/** Every verdict of the Basic check (spec §5), and what is kept of the header. */
import { describe, expect, it } from 'vitest';
import {
  expectBasic,
  readBasicHeader,
  redactAuthorization,
  verifyBasic,
} from '../../../src/main/services/listener/basicAuth.ts';

const expected = expectBasic('bank', 'pa:ss word');
const basic = (text: string): string => 'Basic ' + Buffer.from(text, 'utf8').toString('base64');

describe('verifyBasic', () => {
  it('says ok for the expected user and secret (a colon in the secret is part of it)', () => {
    expect(verifyBasic(basic('bank:pa:ss word'), expected)).toEqual({ verdict: 'ok', presentedUser: 'bank' });
  });

  it('accepts the scheme in any case, extra spaces, and base64 without padding', () => {
    const token = Buffer.from('bank:pa:ss word').toString('base64').replace(/=+$/, '');
    expect(verifyBasic(`  bAsIc   ${token} `, expected).verdict).toBe('ok');
  });

  it('says missing_header without an Authorization header, or an empty one', () => {
    expect(verifyBasic(undefined, expected).verdict).toBe('missing_header');
    expect(verifyBasic('   ', expected).verdict).toBe('missing_header');
  });

  it('says malformed_header for another scheme, no token, invalid base64, no colon, or not UTF-8', () => {
    for (const header of [
      'Bearer abc.def.ghi',
      'Basic',
      'Basic a b',
      'Basic !!!notbase64!!!',
      'Basic YWJj=x',
      'Basic a',
      basic('bankwithoutcolon'),
      'Basic ' + Buffer.from([0x62, 0x3a, 0xff, 0xfe]).toString('base64'),
      'Basic ÿÿÿÿ',
    ]) {
      expect(verifyBasic(header, expected), header).toEqual({ verdict: 'malformed_header', presentedUser: null });
    }
  });

  it('says wrong_user and wrong_secret, keeping the user presented', () => {
    expect(verifyBasic(basic('other:pa:ss word'), expected)).toEqual({ verdict: 'wrong_user', presentedUser: 'other' });
    expect(verifyBasic(basic('bank:guess'), expected)).toEqual({ verdict: 'wrong_secret', presentedUser: 'bank' });
    // A wrong user is reported as such even when the secret is wrong too.
    expect(verifyBasic(basic('other:guess'), expected).verdict).toBe('wrong_user');
    // Prefixes and longer values do not pass: the digests differ.
    expect(verifyBasic(basic('bank:pa:ss wor'), expected).verdict).toBe('wrong_secret');
    expect(verifyBasic(basic('bank:pa:ss words'), expected).verdict).toBe('wrong_secret');
  });

  it('says not_configured when nothing is expected, whatever the header', () => {
    expect(verifyBasic(basic('bank:x'), null)).toEqual({ verdict: 'not_configured', presentedUser: 'bank' });
    expect(verifyBasic(undefined, null)).toEqual({ verdict: 'not_configured', presentedUser: null });
    expect(verifyBasic('garbage', null).verdict).toBe('not_configured');
  });

  it('keeps only digests of the expected credentials', () => {
    expect(JSON.stringify(expected)).not.toContain('pa:ss word');
  });
});

describe('readBasicHeader', () => {
  it('splits at the first colon; an empty secret is still a header', () => {
    expect(readBasicHeader(basic('u:'))).toEqual({ user: 'u', secret: '' });
    expect(readBasicHeader(basic(':s'))).toEqual({ user: '', secret: 's' });
  });
});

describe('redactAuthorization', () => {
  it('keeps the scheme, never the credentials', () => {
    expect(redactAuthorization(basic('bank:secret'))).toBe('Basic [redacted]');
    expect(redactAuthorization('Bearer eyJhbGciOi.x.y')).toBe('Bearer [redacted]');
    expect(redactAuthorization('')).toBe('[redacted]');
    // One word may be the credential itself: nothing of it is kept.
    expect(redactAuthorization('justatoken')).toBe('[redacted]');
    expect(redactAuthorization('tok:en! more')).toBe('[redacted]');
  });
});
