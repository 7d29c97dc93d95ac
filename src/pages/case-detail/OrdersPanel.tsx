import { Button, Caption1, Dropdown, Field, Input, MessageBar, MessageBarBody, Option, SpinButton, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { notify } from '../../api/notify';
import { ADDITIONAL_REQUESTS, orderNeeds, SPECIAL_EXAMINATIONS } from '../../core/caseLifecycle';
import { ChoiceField } from './ChoiceField';
import { LabTable } from './LabTable';
import { loadReagents, placeOrders, type Block, type Order, type OrderDraft, type Reagent, type Specimen } from './labApi';
import './words';

const useStyles = makeStyles({
  root: { display: 'grid', gap: tokens.spacingVerticalS },
  form: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'end', flexWrap: 'wrap' },
  narrow: { minWidth: '120px', maxWidth: '160px' },
  wide: { minWidth: '180px' },
});

type Category = OrderDraft['category'];
const TYPES: Record<Category, readonly string[]> = { special: SPECIAL_EXAMINATIONS, additional: ADDITIONAL_REQUESTS };

/**
 * Technical orders of a case (doctor's advice to the lab): the case's orders, and for whoever may order while
 * the case is where orders go (sample, slide making, diagnosis) a form for special examinations (with their
 * reagent and block) and additional requests (re-cut, deep cut … on a block, re-sample of a specimen). Orders
 * gather in a batch the server takes whole or refuses whole (spec §5: repeated, incomplete, outside-hospital
 * material, used-up specimen); its refusal stays beside the form in the user's language. Used on the case
 * detail page and, `compact` (a narrow column: orders as lines, not a table), in the diagnosis editor.
 */
export function OrdersPanel({ caseId, blocks, specimens, orders, canOrder, compact = false, onDone }: {
  compact?: boolean; caseId: number; blocks: Pick<Block, 'id' | 'block_number'>[]; specimens: Pick<Specimen, 'id' | 'name'>[]; orders: Order[]; canOrder: boolean; onDone(): void;
}) {
  const s = useStyles();
  const { t } = useTranslation();
  const [reagents, setReagents] = useState<Reagent[]>([]);
  const [category, setCategory] = useState<Category>('special');
  const [orderType, setOrderType] = useState<string>(SPECIAL_EXAMINATIONS[0]);
  const [blockId, setBlockId] = useState<number | undefined>();
  const [specimenId, setSpecimenId] = useState<number | undefined>();
  const [reagentId, setReagentId] = useState<number | undefined>();
  const [quantity, setQuantity] = useState(1);
  const [note, setNote] = useState('');
  const [batch, setBatch] = useState<OrderDraft[]>([]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (canOrder) loadReagents().then(setReagents, () => setReagents([])); }, [canOrder]);

  const need = orderNeeds(category, orderType);
  const typeWord = (type: string) => t(`lab.orders.type.${type}`, { defaultValue: type });
  const blockNumber = useMemo(() => new Map(blocks.map((b) => [b.id, b.block_number])), [blocks]);
  const specimenName = useMemo(() => new Map(specimens.map((x) => [x.id, x.name])), [specimens]);
  const reagentName = useMemo(() => new Map(reagents.map((r) => [r.id, r.name])), [reagents]);
  const target = (o: { block_id?: number | null; specimen_id?: number | null }) =>
    [o.block_id ? blockNumber.get(o.block_id) : null, o.specimen_id ? specimenName.get(o.specimen_id) : null].filter(Boolean).join(' · ');
  /** One order in words: kind, what it is on, reagent, how many, and (placed orders) its state. */
  const line = (o: { order_type: string; block_id?: number | null; specimen_id?: number | null; quantity?: number | null }, reagent: string | null | undefined, status?: string) => [
    typeWord(o.order_type),
    o.block_id ? t('lab.orders.onBlock', { number: blockNumber.get(o.block_id) ?? '' }) : null,
    o.specimen_id ? specimenName.get(o.specimen_id) : null,
    reagent, `× ${o.quantity ?? 1}`, status ? t(`lab.orders.status.${status}`, { defaultValue: status }) : null,
  ].filter(Boolean).join(' · ');

  const chooseCategory = (c: Category) => { setCategory(c); setOrderType(TYPES[c][0]); setError(''); };
  const add = () => {
    setBatch((b) => [...b, {
      category, order_type: orderType, quantity,
      ...(need.block && blockId ? { block_id: blockId } : {}),
      ...(need.specimen && specimenId ? { specimen_id: specimenId } : {}),
      ...(need.reagent && reagentId ? { reagent_id: reagentId } : {}),
      ...(note.trim() ? { note: note.trim() } : {}),
    }]);
    setNote('');
    setError('');
  };
  const submit = async () => {
    setBusy(true);
    setError('');
    try {
      await placeOrders(caseId, batch);
      notify(t('lab.orders.placed', { count: batch.length }));
      setBatch([]);
      onDone();
    } catch (e) {
      setError(displayText(e, t('lab.orders.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={s.root} data-testid="orders-panel">
      {compact ? (
        <div className={s.root} data-testid="orders">
          {orders.length ? orders.map((o) => <Caption1 key={o.id} data-order={o.order_type}>{line(o, o.reagent_name, o.status)}</Caption1>) : <Caption1>{t('lab.detail.none')}</Caption1>}
        </div>
      ) : <LabTable<Order> testId="orders" rows={orders} columns={[
        { key: 'type', label: t('lab.detail.orderType'), render: (r) => typeWord(r.order_type) },
        { key: 'target', label: t('lab.orders.target'), render: target },
        { key: 'reagent', label: t('lab.orders.reagent'), render: (r) => r.reagent_name ?? '' },
        { key: 'quantity', label: t('lab.orders.quantity'), render: (r) => r.quantity ?? '' },
        { key: 'status', label: t('lab.detail.orderStatus'), render: (r) => t(`lab.orders.status.${r.status}`, { defaultValue: r.status }) },
        { key: 'who', label: t('lab.detail.who'), render: (r) => r.ordered_by_realname || r.ordered_by_name || '' },
        { key: 'note', label: t('lab.orders.note'), render: (r) => r.note ?? '' },
      ]} />}
      {canOrder ? (
        <>
          <div className={s.form} data-testid="orders-form">
            <Field label={t('lab.orders.category')}>
              <Dropdown className={s.wide} value={t(`lab.orders.categories.${category}`)} selectedOptions={[category]} data-testid="orders-category"
                onOptionSelect={(_e, d) => chooseCategory(d.optionValue as Category)}>
                {(['special', 'additional'] as const).map((c) => <Option key={c} value={c}>{t(`lab.orders.categories.${c}`)}</Option>)}
              </Dropdown>
            </Field>
            <Field label={t('lab.detail.orderType')}>
              <Dropdown className={s.wide} value={typeWord(orderType)} selectedOptions={[orderType]} data-testid="orders-type"
                onOptionSelect={(_e, d) => { setOrderType(d.optionValue ?? orderType); setError(''); }}>
                {TYPES[category].map((type) => <Option key={type} value={type}>{typeWord(type)}</Option>)}
              </Dropdown>
            </Field>
            {need.block ? (
              <ChoiceField label={t('lab.detail.blockNumber')} className={s.narrow} testId="orders-block" items={blocks} chosen={blockId} onChoose={setBlockId}
                name={(b) => b.block_number} />
            ) : null}
            {need.specimen ? (
              <ChoiceField label={t('lab.detail.specimen')} className={s.narrow} testId="orders-specimen" items={specimens} chosen={specimenId} onChoose={setSpecimenId}
                name={(x) => x.name} />
            ) : null}
            {need.reagent ? (
              <ChoiceField label={t('lab.orders.reagent')} className={s.narrow} testId="orders-reagent" items={reagents} chosen={reagentId} onChoose={setReagentId}
                name={(r) => r.name} option={(r) => (r.clone_no ? `${r.name} (${r.clone_no})` : r.name)} />
            ) : null}
            <Field label={t('lab.orders.quantity')}>
              <SpinButton className={s.narrow} min={1} max={99} value={quantity} data-testid="orders-quantity"
                onChange={(_e, d) => { const v = d.value ?? Number.parseInt(d.displayValue ?? '', 10); if (Number.isInteger(v) && v >= 1 && v <= 99) setQuantity(v as number); }} />
            </Field>
            <Field label={t('lab.orders.note')}>
              <Input value={note} maxLength={500} onChange={(_e, d) => setNote(d.value)} data-testid="orders-note" />
            </Field>
            <Button onClick={add} data-testid="orders-add">{t('lab.orders.add')}</Button>
          </div>
          {batch.length ? (
            <div className={s.root} data-testid="orders-batch">
              {batch.map((o, i) => (
                <div key={i} className={s.form}>
                  <Text>{i + 1}. {t(`lab.orders.categories.${o.category}`)} · {line(o, o.reagent_id ? reagentName.get(o.reagent_id) : null)}</Text>
                  <Button size="small" appearance="subtle" onClick={() => setBatch((b) => b.filter((_x, j) => j !== i))}>{t('lab.orders.remove')}</Button>
                </div>
              ))}
              <div>
                <Button appearance="primary" disabled={busy} onClick={() => void submit()} data-testid="orders-submit">{t('lab.orders.submit', { count: batch.length })}</Button>
              </div>
            </div>
          ) : null}
          {error ? <MessageBar intent="error" data-testid="orders-error"><MessageBarBody>{error}</MessageBarBody></MessageBar> : null}
        </>
      ) : null}
    </div>
  );
}
