/** The build of `npm run build`, `npm start` and `npm run serve` (see build.mjs). */
export declare const PROJECT_FOLDER: string;
export declare const BUILD_LOG: string;
export declare function buildIsCurrent(): boolean;
export declare function build(output?: 'inherit' | number): number;
export declare function buildQuietly(options: {
  say: (line: string) => void;
  log?: string;
  steps?: readonly (readonly string[])[];
}): number;
