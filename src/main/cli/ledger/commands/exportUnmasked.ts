/**
 * `ledger export unmasked --profile NAME [--show CLASS[,CLASS…] … | --none]`: which classes of
 * applicants' personal fields the profile's exports and review reports print in clear (issue
 * 24; Settings → Profiles → Personal data in exports and reports is the same setting). Without
 * options it prints the setting; `--show` sets it (every class named, the others masked),
 * `--none` masks everything again (the default). Each change is written to the audit chain
 * with the actor and the classes before and after (LedgerServices.setExportUnmasked). The
 * screen and the CLI's lists stay masked whatever it says: there only a Reveal shows a value.
 */
import {
  DISCLOSURE_CLASS_LABELS,
  DISCLOSURE_CLASSES,
  disclosureText,
  type DisclosureClass,
} from '../../../../shared/personalData/exportDisclosure.ts';
import { UsageError } from '../../common/usageError.ts';
import { EXIT_OK, type CommandContext } from '../triggerCommand.ts';

function isClass(word: string): word is DisclosureClass {
  return (DISCLOSURE_CLASSES as readonly string[]).includes(word);
}

/** The classes named by --show (repeated, or comma separated), each once, in the settings' order. */
function classesOf(shown: string | boolean | string[] | undefined): DisclosureClass[] {
  const words = (Array.isArray(shown) ? shown : typeof shown === 'string' ? [shown] : [])
    .flatMap((value) => value.split(','))
    .map((word) => word.trim().toLowerCase().replace(/-/g, '_'))
    .filter((word) => word !== '');
  if (words.length === 0) throw new UsageError('`export unmasked --show` needs a class, e.g. --show date_of_birth.');
  for (const word of words) {
    if (!isClass(word)) {
      throw new UsageError(
        `\`export unmasked\` knows no class "${word}": one of ${DISCLOSURE_CLASSES.join(', ')} (or --none).`,
      );
    }
  }
  return DISCLOSURE_CLASSES.filter((entry) => words.includes(entry));
}

function sentence(profileName: string, classes: readonly DisclosureClass[]): string {
  return classes.length === 0
    ? `Exports and review reports of ${profileName} show every personal field masked.`
    : `Exports and review reports of ${profileName} show unmasked: ${disclosureText(classes)}; every other personal field masked.`;
}

export async function exportUnmasked(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const none = options.none === true;
  const shown = options.show;
  if (none && shown !== undefined) throw new UsageError('`export unmasked` takes --show CLASS… or --none, not both.');
  // Checked before anything is opened: a typo changes nothing.
  const wanted = none ? [] : shown === undefined ? null : classesOf(shown);
  const services = await context.open();
  const profile = await context.profile(services, false);
  const before = profile.exportUnmasked ?? [];
  if (wanted === null) {
    if (context.arguments.json) context.printJson({ profile: profile.name, unmasked: before });
    else {
      context.print(sentence(profile.name, before));
      context.print(
        `Classes: ${DISCLOSURE_CLASSES.map((entry) => `${entry} (${DISCLOSURE_CLASS_LABELS[entry]})`).join(', ')}.`,
      );
    }
    return EXIT_OK;
  }
  const changed = services.setExportUnmasked(profile.id, wanted);
  const after = changed.exportUnmasked ?? [];
  if (context.arguments.json) context.printJson({ profile: changed.name, unmasked: after, was: before });
  else context.print(`${sentence(changed.name, after)} (was: ${disclosureText(before)}; written to the audit log)`);
  return EXIT_OK;
}
