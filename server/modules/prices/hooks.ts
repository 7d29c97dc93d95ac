import { AppError } from '../../http/errors.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { priceCents, priceKind } from '../../../src/core/prices.js';

const invalid = (field: string, key: 'price.bad_price' | 'price.bad_item') =>
  new AppError(422, key, {}, { [field]: [{ key, params: { field } }] });

/**
 * The price list (SettingPrice): an item must be one the lab charges (src/core/prices.ts), a price whole cents
 * between 0 and the maximum — what the contract's number type cannot say. The stored price is the cents' yuan, so
 * 19.990000001 never reaches a charge.
 */
export const priceItemHooks: ResourceHooks = {
  async beforeWrite(data) {
    if (data.item !== undefined && priceKind(String(data.item)) === null) throw invalid('item', 'price.bad_item');
    if (data.price === undefined) return {};
    const cents = priceCents(data.price);
    if (cents === null) throw invalid('price', 'price.bad_price');
    return { price: cents / 100 };
  },
};
