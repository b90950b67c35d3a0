import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRendererRoot, projectFolder, sandboxChildFile } from '../../../src/main/web/builtFiles.ts';

describe('where web mode finds its files', () => {
  it('from the sources: the project is the folder with package.json, the page out/renderer, the sandbox sandboxChild.ts', () => {
    expect(projectFolder()).toBe(process.cwd());
    expect(defaultRendererRoot()).toBe(join(process.cwd(), 'out', 'renderer'));
    expect(sandboxChildFile()).toBe(join(process.cwd(), 'src', 'main', 'web', 'sandboxChild.ts'));
  });

  it('built (out/web), the project folder is found the same way', () => {
    const project = mkdtempSync(join(tmpdir(), 'ledgerdesk-project-'));
    try {
      writeFileSync(join(project, 'package.json'), '{}');
      mkdirSync(join(project, 'out', 'web'), { recursive: true });
      expect(projectFolder(join(project, 'out', 'web'))).toBe(project);
      expect(projectFolder(join(project, 'src', 'main', 'web'))).toBe(project);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('outside any project it says so', () => {
    expect(() => projectFolder('/')).toThrow(/No package.json above \//);
  });
});
