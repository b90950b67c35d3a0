/**
 * POST /simulation: one of the SIMULATION_TYPES, run in one transaction with the events it
 * emits. An id in the body that names nothing is a bad request (400); a move the lifecycle
 * does not allow is a conflict (409).
 */
import type { SimulationAccepted, SimulationRequest } from '../../shared/bank/index.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import type { RecordKind } from '../store/records.ts';
import { moveAccountApplication, submitAccountApplication } from './accountApplicationLifecycle.ts';
import { createAch, moveAch } from './achLifecycle.ts';
import { postPendingTransaction } from './postPendingTransaction.ts';
import { updatePersonApplication } from './personApplicationUpdate.ts';
import { centsOf } from '../seed/money.ts';

function mustExist(context: SandboxContext, kind: RecordKind, field: string, id: string, noun: string): void {
  if (context.records.text(kind, id) === undefined) {
    throw new RequestProblem(400, `Invalid request body: simulation.${field}: no ${noun} with id ${id}.`);
  }
}

export function runSimulation(context: SandboxContext, request: SimulationRequest): SimulationAccepted {
  switch (request.type) {
    case 'ach.create': {
      mustExist(context, 'account', 'account_id', request.simulation.account_id, 'account');
      const ach = createAch(context, request.simulation);
      return { type: request.type, object_id: ach.id, status: ach.status };
    }
    case 'ach.update_status': {
      mustExist(context, 'ach', 'ach_id', request.simulation.ach_id, 'ACH');
      const ach = moveAch(context, request.simulation.ach_id, request.simulation.status);
      return { type: request.type, object_id: ach.id, status: ach.status };
    }
    case 'account.pending_transaction': {
      const { account_id: accountId, amount, type, desc } = request.simulation;
      mustExist(context, 'account', 'account_id', accountId, 'account');
      const cents = centsOf(amount);
      const chosenType = type ?? (cents > 0 ? 'deposit' : 'charge');
      postPendingTransaction(context, {
        accountId,
        amountCents: cents,
        type: chosenType,
        typeSource: 'bank',
        origin: null,
        desc: desc ?? `SANDBOX ${chosenType.toUpperCase()}`,
        summary: desc ?? `Sandbox ${chosenType.replace('_', ' ')}`,
      });
      return { type: request.type, object_id: accountId, status: null };
    }
    case 'account_application.update_status': {
      const { account_application_id: id, status } = request.simulation;
      mustExist(context, 'account_application', 'account_application_id', id, 'account application');
      const application = moveAccountApplication(context, id, status);
      return { type: request.type, object_id: application.id, status: application.status };
    }
    case 'account_application.create': {
      const application = submitAccountApplication(context, request.simulation.ownership_type ?? 'personal');
      return { type: request.type, object_id: application.id, status: application.status };
    }
    case 'person_application.update': {
      const { person_application_id: id, ...change } = request.simulation;
      mustExist(context, 'person_application', 'person_application_id', id, 'person application');
      updatePersonApplication(context, id, change);
      return { type: request.type, object_id: id, status: null };
    }
    case 'webhook.error': {
      const { webhook_id: id, reason } = request.simulation;
      mustExist(context, 'webhook', 'webhook_id', id, 'webhook');
      const current = context.webhooks.get(id);
      if (current?.status !== 'enabled') {
        throw new RequestProblem(
          409,
          `Webhook ${id} is ${current?.status ?? 'gone'}: only an enabled webhook can enter error (enable it first).`,
        );
      }
      context.webhooks.moveToError(id, reason ?? 'simulated: too many failed deliveries');
      return { type: request.type, object_id: id, status: 'error' };
    }
  }
}
