import type { ReactNode } from 'react';
import type { ActionSchema, PromptSchema } from '../../core/pageSchema';
import { PromptDialog } from '../../widgets/dialogs/PromptDialog';
import { useLabel } from '../../widgets/useLabel';
import { useSelectOptions } from '../options';
import { useAsking } from './useAsking';

type Answer = string | string[];

interface Ask {
  action: ActionSchema & { prompt: PromptSchema };
  /** What the prompt starts with (`promptDefault`: the rows' `defaultFrom` values). */
  initial: string[];
  /** The ids of the rows acted on: a `lookup:` source may answer for them (CaseDistribution's doctors of the case's directory). */
  rows: (string | number)[];
  submit(value: Answer): Promise<void>;
}

/** The prompt of one action. */
function PromptHost({ ask, onDone }: { ask: Ask; onDone(done: boolean): void }) {
  const { label } = useLabel();
  const { prompt } = ask.action;
  const options = useSelectOptions(prompt.options, ask.rows);
  return (
    <PromptDialog open title={label(ask.action.label)} label={label(prompt.label)} options={options} required={prompt.required}
      requiredMessage={prompt.requiredMessage ? label(prompt.requiredMessage) : undefined}
      multiple={prompt.multiple} initialValue={prompt.multiple ? ask.initial : ask.initial[0]}
      onConfirm={async (value) => {
        await ask.submit(value);
        onDone(true);
      }}
      onCancel={() => onDone(false)} />
  );
}

/**
 * `const [dialog, prompt] = useActionPrompt(); if (await prompt(action, initial, send)) …`: asks the action's
 * prompt, starting with `initial`, and calls `send` with the answer while the dialog stays open (a `multiple`
 * prompt answers a list). Resolves true once `send` succeeded, false when cancelled; a failing `send` leaves the
 * dialog open with its message.
 */
export function useActionPrompt(): [ReactNode, (action: Ask['action'], initial: string[], submit: Ask['submit'], rows?: Ask['rows']) => Promise<boolean>] {
  const [dialog, ask] = useAsking<Ask>((question, done) => <PromptHost ask={question} onDone={done} />);
  return [dialog, (action, initial, submit, rows = []) => ask({ action, initial, submit, rows })];
}
