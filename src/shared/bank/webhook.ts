/** Webhook record and its create and update requests (spec §2.5, §3.2; conventions.md). */
import { z } from 'zod';
import { timestamp, userdata } from './common.ts';
import { responseOf } from './response.ts';

export const WEBHOOK_STATUSES = ['enabled', 'error', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Event names are `<resource>.<op>`; op is create, update or delete. */
export const EVENT_NAME_PATTERN = /^[a-z][a-z_]*[.](create|update|delete)$/;
export const eventName = z
  .string()
  .regex(EVENT_NAME_PATTERN, { message: 'must be an event name like ach.update (<resource>.<create|update|delete>)' });

/** Event names seen in the real service (conventions.md). */
export const KNOWN_EVENTS = [
  'account.update',
  'ach.create',
  'ach.update',
  'book.update',
  'wire.update',
  'card.update',
  'document.create',
  'file.create',
  'account_application.update',
  'person_application.update',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
] as const;

/**
 * Written out in full (`http://` or `https://`, a host, no white space): the WHATWG parser
 * alone would also take `http:host` or a URL with spaces around it, which no validator of the
 * document's `format: uri` and pattern would.
 */
const WEBHOOK_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$';
export const webhookUrl = z
  .string()
  .refine(
    (text) => {
      if (!new RegExp(WEBHOOK_URL_PATTERN).test(text)) return false;
      try {
        const url = new URL(text);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http:// or https:// URL' },
  )
  .meta({ format: 'uri', pattern: WEBHOOK_URL_PATTERN });

/**
 * `basic_user` and `basic_secret` go together: both set (strings) or neither (absent or null).
 * What requireBothOrNeither checks, as JSON Schema says it.
 */
const BOTH_OR_NEITHER = {
  anyOf: [
    { properties: { basic_user: { type: 'null' }, basic_secret: { type: 'null' } } },
    {
      required: ['basic_user', 'basic_secret'],
      properties: { basic_user: { type: 'string' }, basic_secret: { type: 'string' } },
    },
  ],
};

/** `basic_secret` is ALWAYS null in responses; the service never echoes a secret. */
export const webhook = z.looseObject({
  id: z.string().min(1),
  event: z.string(),
  url: z.string(),
  status: z.enum(WEBHOOK_STATUSES),
  error: z.string().nullable(),
  basic_user: z.string().nullable(),
  basic_secret: z.null(),
  userdata: z.record(z.string(), z.unknown()).nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Webhook = z.infer<typeof webhook>;

/** `basic_user: null, basic_secret: null` means "not set", as in the real service (real-wire create_webhook_success). */
export const webhookCreateRequest = z
  .strictObject({
    event: eventName,
    url: webhookUrl,
    basic_user: z.string().min(1).nullable().optional(),
    basic_secret: z.string().min(1).nullable().optional(),
    userdata: userdata.optional(),
  })
  .superRefine(requireBothOrNeither)
  .meta(BOTH_OR_NEITHER);
export type WebhookCreateRequest = z.infer<typeof webhookCreateRequest>;

/** `error` is set only by the service; a client may enable or disable. */
const WEBHOOK_SETTABLE_STATUSES = ['enabled', 'disabled'] as const;

export const webhookUpdateRequest = z
  .strictObject({
    event: eventName.optional(),
    url: webhookUrl.optional(),
    status: z
      .enum(WEBHOOK_SETTABLE_STATUSES, { message: 'must be enabled or disabled (error is set only by the service)' })
      .optional(),
    basic_user: z.string().min(1).nullable().optional(),
    basic_secret: z.string().min(1).nullable().optional(),
    userdata: userdata.optional(),
  })
  .refine((update) => Object.keys(update).length > 0, { message: 'must change at least one field' })
  .meta({
    minProperties: 1,
    description:
      'A webhook has both basic_user and basic_secret or neither once updated: send both (strings, or both null). ' +
      'One sent alone is taken only when the webhook already has the other (400 otherwise).',
    // Sent together, they are both strings or both null, whatever the webhook holds.
    not: {
      anyOf: [
        {
          required: ['basic_user', 'basic_secret'],
          properties: { basic_user: { type: 'string' }, basic_secret: { type: 'null' } },
        },
        {
          required: ['basic_user', 'basic_secret'],
          properties: { basic_user: { type: 'null' }, basic_secret: { type: 'string' } },
        },
      ],
    },
  });
export type WebhookUpdateRequest = z.infer<typeof webhookUpdateRequest>;

function requireBothOrNeither(
  request: { basic_user?: string | null | undefined; basic_secret?: string | null | undefined },
  context: z.RefinementCtx,
): void {
  const hasUser = request.basic_user !== undefined && request.basic_user !== null;
  const hasSecret = request.basic_secret !== undefined && request.basic_secret !== null;
  if (hasUser !== hasSecret) {
    context.addIssue({
      code: 'custom',
      path: [hasUser ? 'basic_secret' : 'basic_user'],
      message: 'must be set together with ' + (hasUser ? 'basic_user' : 'basic_secret'),
    });
  }
}

export const webhookResponse = responseOf({ record: webhook, required: ['id'] });
export type WebhookResponse = z.output<typeof webhookResponse.schema>;
