// electron-builder afterPack hook: flips the Electron fuses of the packaged binary before it
// is signed and wrapped in an installer. Off: running as plain Node, NODE_OPTIONS, the
// --inspect flags. On: cookie encryption, loading the app only from its asar, and checking
// that asar against the integrity hash embedded at packaging time.
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import { join } from 'node:path';

export const LEDGERDESK_FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: false,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** The Electron executable inside the packed app folder. */
export function electronBinaryOf(context) {
  const { electronPlatformName, appOutDir, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(appOutDir, `${name}.app`);
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${name}.exe`);
  return join(appOutDir, packager.executableName);
}

export async function afterPack(context) {
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  // arm64 macOS binaries carry an ad-hoc signature that flipping fuses invalidates.
  const arm64 = context.arch === 3;
  await flipFuses(electronBinaryOf(context), {
    ...LEDGERDESK_FUSES,
    resetAdHocDarwinSignature: isMac && arm64,
  });
}

export default afterPack;
