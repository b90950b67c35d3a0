/** The bank's resources: one module each, schema and type from one definition. */
export * from './common.ts';
export * from './ids.ts';
export * from './list.ts';
export * from './error.ts';
export * from './parse.ts';
export * from './jsonSchema.ts';
export * from './pendingTransaction.ts';
export * from './document.ts';
export * from './cardArt.ts';
export * from './accountApplication.ts';
export * from './webhook.ts';
export * from './webhookNotification.ts';
export * from './webhookSend.ts';
export * from './file.ts';
export * from './account.ts';
export * from './cardProduct.ts';
export * from './ach.ts';
