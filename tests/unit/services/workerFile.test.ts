import { describe, expect, it } from 'vitest';
import { unpackedPathOf, workerFile } from '../../../src/main/services/cache/cacheWriter.ts';

describe('the cache writer worker’s file', () => {
  it('is started from app.asar.unpacked when the code runs from an archive', () => {
    expect(unpackedPathOf('/opt/Ledgerdesk/resources/app.asar/out/main/cacheWriterWorker.js')).toBe(
      '/opt/Ledgerdesk/resources/app.asar.unpacked/out/main/cacheWriterWorker.js',
    );
    expect(unpackedPathOf('C:\\Ledgerdesk\\resources\\app.asar\\out\\main\\cacheWriterWorker.js')).toBe(
      'C:\\Ledgerdesk\\resources\\app.asar.unpacked\\out\\main\\cacheWriterWorker.js',
    );
    expect(unpackedPathOf('/home/dev/ledgerdesk/out/main/cacheWriterWorker.js')).toBeNull();
    expect(unpackedPathOf('/home/dev/my.asarnot/out/x.js')).toBeNull();
  });

  it('is found beside the code when run from source', () => {
    expect(workerFile()?.pathname).toMatch(/\/src\/main\/services\/cache\/cacheWriterWorker\.ts$/);
  });
});
