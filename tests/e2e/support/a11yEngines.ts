/**
 * Two accessibility engines besides axe (issue 38): HTML_CodeSniffer (npm `html_codesniffer`,
 * the WCAG 2 AA standard) and IBM Equal Access (npm `accessibility-checker-engine`, its ace.js,
 * the IBM_Accessibility rule set: WCAG 2.2 A and AA and the IBM requirements). They disagree
 * with axe where axe is lenient: an `aria-controls` naming an id that is not in the page, an
 * `aria-label` on an element whose role takes no name, a focusable element with no widget role.
 * Both are pinned in package.json and run from their files in node_modules, in the page itself
 * (page.evaluate is not subject to the page's CSP, so the app's CSP stays as shipped). Only
 * errors fail (HTML_CodeSniffer's type 1, Equal Access's VIOLATION/FAIL): warnings and "needs
 * review" are for a person, not a gate.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const HTMLCS_SOURCE = readFileSync(require.resolve('html_codesniffer/build/HTMLCS.js'), 'utf8');
const ACE_SOURCE = readFileSync(require.resolve('accessibility-checker-engine/ace.js'), 'utf8');

/** HTML_CodeSniffer's message type for an error (2 is a warning, 3 a notice). */
const HTMLCS_ERROR = 1;
const HTMLCS_STANDARD = 'WCAG2AA';
const IBM_POLICY = 'IBM_Accessibility';

/** One finding, named so the failure says what to fix and where. */
interface Finding {
  rule: string;
  message: string;
  where: string;
}

/** Loads each engine once per document (a navigation or a reload starts a new one). */
async function inject(page: Page): Promise<void> {
  const loaded = await page.evaluate(() => ({
    htmlcs: window.HTMLCS !== undefined,
    ace: window.ace !== undefined,
  }));
  // As classic scripts in the page's main world: each defines its one global (HTMLCS, ace).
  if (!loaded.htmlcs) await page.evaluate(HTMLCS_SOURCE);
  if (!loaded.ace) await page.evaluate(ACE_SOURCE);
}

/*
 * The functions below run in the page (page.evaluate sends their source). Node-side files are
 * type-checked without the DOM library, so the little of the page they touch is declared here.
 */
interface EngineElement {
  tagName: string;
  id: string;
  classList: Iterable<string>;
  parentElement: EngineElement | null;
  outerHTML: string;
}
declare const document: {
  evaluate: (
    path: string,
    context: unknown,
    resolver: null,
    type: number,
    result: null,
  ) => { singleNodeValue: { closest?: (selector: string) => unknown } | null };
};
declare const window: { HTMLCS?: HtmlcsGlobal; ace?: AceGlobal };

interface HtmlcsMessage {
  type: number;
  code: string;
  msg: string;
  element: EngineElement;
}
interface HtmlcsGlobal {
  process: (standard: string, content: unknown, done: () => void, failed: () => void, language: string) => void;
  getMessages: () => HtmlcsMessage[];
}
interface AceResult {
  ruleId: string;
  message: string;
  value: [string, string];
  path: { dom: string };
  snippet: string;
}
interface AceGlobal {
  Checker: new () => { check: (document: unknown, policies: string[]) => Promise<{ results: AceResult[] }> };
}

async function htmlcsErrors(page: Page): Promise<Finding[]> {
  return page.evaluate(
    ({ standard, errorType }) =>
      new Promise<Finding[]>((resolve, reject) => {
        const htmlcs = window.HTMLCS;
        if (htmlcs === undefined) throw new Error('HTML_CodeSniffer is not loaded');
        /** A short CSS-like path: tag, id, first classes, up to the nearest element with an id. */
        const pathOf = (element: EngineElement): string => {
          const parts: string[] = [];
          for (let node: EngineElement | null = element; node !== null && parts.length < 4; node = node.parentElement) {
            const classes = [...node.classList]
              .slice(0, 2)
              .map((name) => `.${name}`)
              .join('');
            parts.unshift(`${node.tagName.toLowerCase()}${node.id === '' ? '' : `#${node.id}`}${classes}`);
            if (node.id !== '') break;
          }
          return parts.join(' > ');
        };
        htmlcs.process(
          standard,
          document,
          () => {
            resolve(
              htmlcs
                .getMessages()
                .filter((message) => message.type === errorType)
                .map((message) => ({
                  rule: message.code,
                  message: message.msg,
                  where: `${pathOf(message.element)} ${message.element.outerHTML.slice(0, 120)}`,
                })),
            );
          },
          () => {
            reject(new Error('HTML_CodeSniffer could not run its standard'));
          },
          'en',
        );
      }),
    { standard: HTMLCS_STANDARD, errorType: HTMLCS_ERROR },
  );
}

async function ibmErrors(page: Page): Promise<Finding[]> {
  return page.evaluate(async (policy) => {
    const ace = window.ace;
    if (ace === undefined) throw new Error('IBM Equal Access (ace.js) is not loaded');
    const report = await new ace.Checker().check(document, [policy]);
    /**
     * Inside an inert subtree (the window behind a modal dialog): not focusable and not in the
     * accessibility tree (HTML's inert), which Equal Access does not know, so it would call the
     * grid's aria-activedescendant "not tabbable" while a dialog is open. What is in the dialog,
     * and the whole window once it closes, is checked as always.
     */
    const inert = (path: string): boolean => {
      const FIRST_ORDERED_NODE_TYPE = 9;
      const node = document.evaluate(path, document, null, FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
      return typeof node?.closest === 'function' && node.closest('[inert]') !== null;
    };
    return report.results
      .filter((result) => result.value[0] === 'VIOLATION' && result.value[1] === 'FAIL' && !inert(result.path.dom))
      .map((result) => ({
        rule: result.ruleId,
        message: result.message,
        where: `${result.path.dom} ${result.snippet}`,
      }));
  }, IBM_POLICY);
}

/** The errors of both engines in the page's current state, one readable line each. */
export async function engineErrors(page: Page): Promise<string[]> {
  await inject(page);
  const [htmlcs, ibm] = [await htmlcsErrors(page), await ibmErrors(page)];
  return [
    ...htmlcs.map((finding) => `HTML_CodeSniffer ${finding.rule}: ${finding.message} at ${finding.where}`),
    ...ibm.map((finding) => `IBM Equal Access ${finding.rule}: ${finding.message} at ${finding.where}`),
  ];
}

/**
 * Fails the test on any error of either engine; `state` names what is on screen. Soft: the walk
 * goes on, so one run names every state's errors, and the test fails at its end.
 */
export async function expectNoEngineErrors(page: Page, state: string): Promise<void> {
  const theme = (await page.locator('html').getAttribute('data-theme')) ?? 'unset';
  const errors = await engineErrors(page);
  expect
    .soft(errors, `HTML_CodeSniffer (WCAG2AA) and IBM Equal Access errors in "${state}" (${theme} theme)`)
    .toEqual([]);
}
