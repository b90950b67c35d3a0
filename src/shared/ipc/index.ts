/** The IPC contract, its error shape and the one bridge builder. */
export * from './common.ts';
export * from './errors.ts';
export * from './contract.ts';
export * from './bridge.ts';
export * from './domains/app.ts';
export * from './domains/profiles.ts';
export * from './domains/credentials.ts';
export * from './domains/pendingTransactions.ts';
export * from './domains/accountApplications.ts';
export * from './domains/webhooks.ts';
export * from './domains/webhookSends.ts';
export * from './domains/documents.ts';
export * from './domains/sync.ts';
export * from './domains/listener.ts';
export * from './domains/exports.ts';
export * from './domains/audit.ts';
export * from './domains/trigger.ts';
