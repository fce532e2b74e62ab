import { approveTransferBody } from '../../schemas/compiled/sharing.js';
import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute('approve', {
  summary: 'Approve a transfer (requested → approved), choosing where birds, feed or eggs go',
  who: 'a user of the receiving farm',
  extra:
    'The receiving farm accepts what the sending farm offered. Birds, feed and eggs: `flockId` names the flock of your farm whose cycle records the ' +
    'movement (default: the flock the sender proposed, when it is one of yours; else 400 asking for one) and `cycleId` its cycle (default: its active one); ' +
    'both are stored on the transfer (`to`) and the completion writes there. Equipment takes neither (400). ',
  conflicts: ', or the chosen cycle is not active',
  body: approveTransferBody,
  notFound: 'No such transfer, or one between farms you cannot see; or `flockId`/`cycleId` not of your farm (as a missing one)',
});
