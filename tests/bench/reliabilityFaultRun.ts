/**
 * One faults-under-load run (tests/integration/reliability/support/faultRun.ts) in a process
 * of its own, so each run's memory figures start from a fresh process. Takes the options as
 * one JSON argument and prints the report as one JSON line. Used by reliability.bench.ts.
 */
import { runFaultScenario, type FaultRunOptions } from '../integration/reliability/support/faultRun.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as FaultRunOptions;
const report = await runFaultScenario(options);
process.stdout.write(JSON.stringify(report) + '\n');
