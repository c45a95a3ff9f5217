import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dialogArrived, noTriggers, triggerReceived } from './dialog-triggers';
import type { OpenDialog } from './dialog-types';

const dialog = (trigger: string): OpenDialog => ({ trigger_id: trigger, url: 'http://x', dialog: { title: trigger } });

test('when the answer with the trigger id comes first, then the dialog shows when its event arrives, once', () => {
  const afterAnswer = triggerReceived(noTriggers, 't1');
  assert.equal(afterAnswer.show, undefined);
  const arrived = dialogArrived(afterAnswer.state, dialog('t1'));
  assert.equal(arrived.show?.trigger_id, 't1');
  assert.equal(dialogArrived(arrived.state, dialog('t1')).show, undefined, 'a repeated event does not reopen it');
});

test('when the event comes before the answer, then it waits and shows once the trigger id is this page’s', () => {
  const arrived = dialogArrived(noTriggers, dialog('t2'));
  assert.equal(arrived.show, undefined);
  assert.equal(triggerReceived(arrived.state, 't2').show?.trigger_id, 't2');
});

test('when another tab pressed the button, then this page never shows the dialog', () => {
  const mine = triggerReceived(noTriggers, 'mine').state;
  assert.equal(dialogArrived(mine, dialog('someone-elses')).show, undefined);
});

test('when many dialogs wait unmatched, then only the last ten are kept', () => {
  let state = noTriggers;
  for (let i = 0; i < 15; i += 1) state = dialogArrived(state, dialog(`d${i}`)).state;
  assert.equal(state.waiting.length, 10);
  assert.equal(triggerReceived(state, 'd0').show, undefined);
  assert.equal(triggerReceived(state, 'd14').show?.trigger_id, 'd14');
});
