/** Who the sandbox is: one bank, one organization (the API key's), ids fixed across runs. */
export const SANDBOX_BANK_ID = 'bank_sandbox';
export const SANDBOX_ORGANIZATION_ID = 'org_sandbox';
