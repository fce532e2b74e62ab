import { transferActionRoute } from './transfer-action.js';

export const handler = transferActionRoute('complete', {
  summary: 'Complete an approved transfer: both sides’ movements in one transaction (approved → completed)',
  who: 'a user of either farm',
  extra:
    'Birds write `bird_transfer_out` in the sending cycle and `bird_transfer_in` in the receiving one; feed `feed_transfer_out`/`feed_transfer_in` ' +
    '(stock per feed type); eggs `egg_transfer_out`/`egg_transfer_in` (egg stock); equipment moves each piece’s holder in the register. The movements are ' +
    'dated on the transfer’s own `date` when its request named one (it must fall within both cycles: 409 naming it; audited as back-dated), else today (UTC), and locked. Everything commits together or not at all: concurrent completions complete it once (the others 409). ' +
    'Birds that would put the receiving house above the stocking density limit (the farm’s tier at the forecast, else breed-standard, weight up to the expected harvest) ' +
    'are transferred all the same, with a `warnings` entry naming the density, the limit and the date. ',
  conflicts:
    ', the sending farm under a movement restriction (names the incident), a balance that would go negative (names it; nothing is written), or a cycle no longer active',
  answer: {
    schema: 'TransferCompletedResponse',
    description: 'The transfer, as it is now (with `warnings` when the birds would put the receiving house above the stocking density limit)',
  },
});
