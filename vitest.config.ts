import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * unit: fast, in-process, no servers. integration: real servers on loopback, real SQLite
 * files, a real Secret Service (run inside dbus-run-session by scripts/with-keyring.sh).
 * No test carries a wall-clock limit on what it measures; timeouts below only stop a hung run.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          // tests/security: the security review's reproductions, run as an attacker would
          // (real cache file, keychain and servers), so they need what integration tests need.
          include: ['tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'],
          exclude: ['tests/integration/team/**', 'tests/security/team/**'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Servers and SQLite files per test file; two cores on the build machines.
          maxWorkers: 2,
        },
      },
      {
        // Team mode against a real PostgreSQL: one throwaway cluster per run (globalSetup),
        // a database per test file made from a migrated template.
        test: {
          name: 'team',
          // tests/security/team: the security review's team reproductions, against the same cluster.
          include: ['tests/integration/team/**/*.test.ts', 'tests/security/team/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
          globalSetup: ['tests/support/team/globalSetup.ts'],
        },
      },
      {
        // The recorded real traffic (../shared/real-wire) against the real BankClient and the
        // real sandbox, on loopback; no keychain.
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The renderer's stores, components and forms, in jsdom with Testing Library. Files
        // end in .test.tsx so the node-only unit project above does not pick them up.
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['tests/unit/renderer/**/*.test.tsx'],
          environment: 'jsdom',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
