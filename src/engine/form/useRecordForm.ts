import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { notify } from '../../api/notify';
import { sealPassword } from '../../api/seal';
import { submittedData } from '../../core/formRules';
import type { FormSchema, FormSource, ResourceInfo } from '../../core/pageSchema';
import type { DataProvider, Row } from '../dataProvider';
import { useDataProvider } from '../dataContext';
import { usePreload, usePreviewMode } from '../preload';
import { useRuleResolver } from './ruleResolverContext';

export type RecordState = { status: 'loading' } | { status: 'ready'; record: Row } | { status: 'error'; text: string };

/** A stored setting is JSON text (spec §7: system_config as a JSON string) or already an object. */
function parseSetting(value: unknown): Row {
  if (typeof value === 'string') {
    try {
      const v = JSON.parse(value);
      return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {};
}

/** Passwords travel sealed with the server's public key, like the login's (ARCHITECTURE §6); empty ones are left out. */
async function sealFields(fields: string[] | undefined, body: Row): Promise<Row> {
  if (!fields?.length) return body;
  const sealed = { ...body };
  for (const field of fields) {
    if (typeof sealed[field] === 'string' && sealed[field]) sealed[field] = await sealPassword(sealed[field] as string);
    else delete sealed[field];
  }
  return sealed;
}

/** Where the record comes from and goes to: a resource row, a system setting, or a page's own endpoints. */
interface Store {
  creating: boolean;
  load(): Promise<Row>;
  save(body: Row): Promise<Row>;
}

function storeFor(source: FormSource | undefined, resource: ResourceInfo | null, id: string | undefined, dp: DataProvider): Store | null {
  if (source && 'setting' in source) {
    const key = source.setting;
    return {
      creating: false,
      load: async () => parseSetting(await dp.getSetting(key)),
      save: async (body) => {
        await dp.saveSetting(key, JSON.stringify(body));
        return body;
      },
    };
  }
  if (source && 'create' in source) {
    return {
      creating: true,
      load: () => Promise.resolve({}),
      save: (body) => dp.custom<Row>({ method: source.create.method, url: source.create.url, body }),
    };
  }
  if (source && 'load' in source) {
    return {
      creating: false,
      load: () => dp.custom<Row>({ method: 'GET', url: source.load }),
      save: (body) => dp.custom<Row>({ method: source.save.method, url: source.save.url, body }),
    };
  }
  if (!resource) return null;
  return {
    creating: id === undefined,
    load: () => (id === undefined ? Promise.resolve({}) : dp.getOne(resource, id)),
    save: (body) => (id === undefined ? dp.create(resource, body) : dp.update(resource, id, body)),
  };
}

/**
 * Loading and saving one form's record: a resource row (GET item/{id}, POST store or PATCH
 * update/{id}), a system setting, or the page's own load/save endpoints. Only the fields the form
 * shows are sent; a 422 or 409 keeps the form open with `errors` on their fields (spec §7).
 */
export function useRecordForm(form: FormSchema, resource: ResourceInfo | null, id: string | undefined, onSaved: (row: Row) => void) {
  const { t } = useTranslation();
  const dp = useDataProvider();
  const resolve = useRuleResolver();
  const preload = usePreload();
  const preview = usePreviewMode();
  const inner = storeFor(form.source, resource, id, dp);
  const store = inner && { ...inner, save: async (body: Row) => inner.save(await sealFields(form.seal, body)) };
  const creating = store?.creating ?? id === undefined;
  const [state, setState] = useState<RecordState>(
    creating ? { status: 'ready', record: {} } : preload ? { status: 'ready', record: preload.record ?? {} } : { status: 'loading' });
  const [serverErrors, setServerErrors] = useState<Record<string, string[]> | null>(null);
  const [saving, setSaving] = useState(false);
  const storeKey = JSON.stringify([form.source, resource?.route, id]);

  useEffect(() => {
    if (creating || preload || !store) return;
    let live = true;
    setState({ status: 'loading' });
    store.load().then((record) => live && setState({ status: 'ready', record: record ?? {} }))
      .catch((e) => live && setState({ status: 'error', text: displayText(e, t('engine.loadFailed')) }));
    return () => { live = false; };
  }, [storeKey, creating, preload]); // eslint-disable-line react-hooks/exhaustive-deps -- storeKey names the store; the store object is rebuilt each render

  const submit = async (data: Row) => {
    if (!store || preview) return;
    const original = state.status === 'ready' ? state.record : {};
    const body = submittedData(form, data, creating, { resolve, original });
    setSaving(true);
    setServerErrors(null);
    try {
      const saved = await store.save(body);
      if (!creating) setState({ status: 'ready', record: { ...original, ...(saved ?? body) } });
      notify(t('form.saved'));
      onSaved(saved ?? body);
    } catch (e) {
      const res = (e as { response?: { status?: number; data?: { errors?: unknown } } }).response;
      const errors = res?.data?.errors;
      // 422 (validation) and 409 (a duplicate) both name their fields; each message goes on its field.
      if (errors && typeof errors === 'object' && !Array.isArray(errors)) setServerErrors(errors as Record<string, string[]>);
    } finally {
      setSaving(false);
    }
  };

  // The schema editor's preview shows the form but never saves it.
  return { creating, state, serverErrors, saving, submit, canSave: !!store && !preview };
}
