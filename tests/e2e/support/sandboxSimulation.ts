/** Asks the sandbox bank to simulate an event (POST /simulation), as its operator would; fails the test unless accepted. */
import { expect } from '@playwright/test';
import type { RunningSandbox } from '../../../src/sandbox/index.ts';

export async function simulate(sandbox: RunningSandbox, body: unknown): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/simulation`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(202);
}
