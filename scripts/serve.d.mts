/** Web mode from its bundle (see serve.mjs); never returns: the process ends when web mode stops. */
export declare function serveFromBuild(args: readonly string[]): Promise<never>;
