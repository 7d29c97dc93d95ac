import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import pageMetaSchema from '../../../schemas/meta/page.schema.json';
import { api, unwrap } from '../../api/client';
import { layerContract, type Contract, type ContractExtension } from '../../core/contract';
import { checkContractExtension } from '../../core/pageSchemaCheck';
import { forgetAllSchemas, type SchemaVersion } from '../../engine/schemaApi';
import { LayeredEditor, type LayeredKind } from './LayeredEditor';
import { useOverrideEditorStyles } from './overrideEditing';

const enc = encodeURIComponent;
/** The page meta-schema's `contractExtension` as a schema of its own (its definitions kept for the fields' `$ref`s). */
const EXTENSION_SCHEMA = { definitions: pageMetaSchema.definitions, ...pageMetaSchema.definitions.contractExtension };

/**
 * The resource-field half of the schema editor: what this hospital adds to a resource's write contract
 * (new fields, kept in `extra`; more required fields; visibleIf / requiredIf rules and checks), checked as
 * typed against the base contract (an extension only adds), with the contract as it would be beside it.
 * Every form of the resource shows the added fields; the server checks every write against them.
 */
export function ContractEditor() {
  const s = useOverrideEditorStyles();
  const { t } = useTranslation();
  const kind = useMemo<LayeredKind<Contract>>(() => ({
    id: 'contract', nameLabel: t('schemaEditor.resource'), validText: t('schemaEditor.contractValid'), mergedTitle: t('schemaEditor.mergedContract'), metaSchema: EXTENSION_SCHEMA,
    names: () => unwrap<string[]>(api.get('/contracts')),
    load: async (name) => {
      const [base, layered, versions] = await Promise.all([
        unwrap<Contract>(api.get(`/contracts/${enc(name)}/base`)),
        unwrap<{ version: number }>(api.get(`/contracts/${enc(name)}`)),
        unwrap<SchemaVersion[]>(api.get(`/contracts/${enc(name)}/versions`)),
      ]);
      return { base, current: layered.version, versions };
    },
    check: (override, base) => checkContractExtension(override, base),
    effective: (override, base) => layerContract(base, override as ContractExtension),
    preview: (override, base) => <pre className={s.merged}>{JSON.stringify(layerContract(base, override as ContractExtension), null, 2)}</pre>,
    // Pages carry their resource's contract: a saved extension reaches them at their next load.
    save: (name, override, note) => unwrap<{ version: number }>(api.put(`/contracts/${enc(name)}`, { override, note }, { silent: true })).finally(forgetAllSchemas),
    rollback: (name, version) => unwrap<{ version: number }>(api.post(`/contracts/${enc(name)}/rollback`, { version })).finally(forgetAllSchemas),
  }), [t, s.merged]);
  return <LayeredEditor kind={kind} />;
}
