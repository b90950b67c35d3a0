/** Types of build/afterPack.mjs (the electron-builder hook), for the tests. */
import type { FuseV1Config } from '@electron/fuses';

export interface PackContext {
  electronPlatformName: string;
  arch: number;
  appOutDir: string;
  packager: { appInfo: { productFilename: string }; executableName: string };
}

export declare const LEDGERDESK_FUSES: FuseV1Config;
export declare function electronBinaryOf(
  context: Pick<PackContext, 'electronPlatformName' | 'appOutDir' | 'packager'>,
): string;
export declare function afterPack(context: PackContext): Promise<void>;
export default afterPack;
