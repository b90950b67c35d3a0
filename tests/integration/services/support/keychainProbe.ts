/** Run as a child process: prints the keychain status as JSON (for tests that change the environment). */
import { detectKeychain } from '../../../../src/main/services/credentials/keychainStatus.ts';

process.stdout.write(JSON.stringify(await detectKeychain()) + '\n');
