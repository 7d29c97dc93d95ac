import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { NavigateFunction } from 'react-router-dom';
import type { PromptAnswer } from '../../core/actionRequest';
import type { ActionKind, ActionSchema } from '../../core/pageSchema';
import type { Reveal } from '../../widgets/dialogs/RevealDialog';
import type { DataProvider, ResourceRef, Row } from '../dataProvider';
import type { ScanAnswer } from './ActionScan';
import { namedRegistry } from '../../core/namedRegistry';

/** What a list gives the actions it runs. */
export interface ActionContext {
  resource: ResourceRef;
  rowKey: string;
  basePath: string;
  dataProvider: DataProvider;
  openForm(mode: { kind: 'create' } | { kind: 'edit'; id: string }): void;
  refresh(): void;
}

/** What the runner (useActionRunner) hands each kind: the context, the dialogs, and small helpers. */
export interface ActionTools {
  ctx: ActionContext;
  t: TFunction;
  label(l: unknown): string;
  navigate: NavigateFunction;
  idOf(row: Row): string | number;
  notify(text: string, intent?: 'success' | 'warning' | 'error'): void;
  /** Asks before acting (the action's `confirm`, the password box with `passwordConfirm`, or `fallback`); true to go on. */
  ask(action: ActionSchema, rows: Row[], fallback?: string): Promise<boolean>;
  /**
   * Sends with the prompt's answer while the prompt is open (started with what `defaultFrom` takes from the rows), or at
   * once without a prompt; true when it went through.
   */
  withValue(action: ActionSchema, rows: Row[], send: (value: PromptAnswer | undefined, silent: boolean) => Promise<void>): Promise<boolean>;
  /** Shows a form action's fields and sends the answers while the dialog is open; true when it went through. */
  fill(action: ActionSchema, send: (values: Record<string, string>) => Promise<void>): Promise<boolean>;
  /** Collects barcode scans with their status (a `scan` action) and sends them while the dialog is open; true when it went through. */
  scan(action: ActionSchema, send: (answer: ScanAnswer) => Promise<void>): Promise<boolean>;
  /** Shows a value the server answers only once (a new API key), copyable; resolves when the user closes it. */
  reveal(shown: Reveal): Promise<void>;
  /**
   * Draws a kind's own dialog (its file's component) until it calls `done`, resolving with what it gave: a new kind
   * that asks something of its own needs no new tool here.
   */
  show<T>(render: (done: (answer: T) => void) => ReactNode): Promise<T>;
}

export type ActionHandler = (action: ActionSchema, rows: Row[], tools: ActionTools) => Promise<void> | void;

/**
 * Action kind → what it does, after the renderer registry (src/engine/registry.ts): one file per kind in
 * this folder, registered by `actions/index.ts` (or a module's own registration, src/modules). A new kind is a file
 * and that line; a kind with a dialog of its own draws it with `tools.show`. A name registered twice throws.
 */
const handlers = namedRegistry<ActionHandler>('action kind');

export function registerAction(kind: ActionKind, handler: ActionHandler): void {
  handlers.register(kind, handler);
}

export const resolveAction = (kind: string): ActionHandler | undefined => handlers.get(kind);
/** The kinds registered: the page check's list of known kinds. */
export const actionKinds = (): string[] => handlers.names();
