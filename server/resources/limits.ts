/**
 * Every bound on what one request to the generic resource API may ask of the server, in one place.
 * Sized from the shipped pages (schemas/pages), with room for a hospital's own tabs and custom searches;
 * anything past a bound is a translated 422 naming it, before any SQL runs.
 */
export const LIST_LIMITS = {
  /**
   * Leaf conditions across filter, params, keyword search and every tab of a count. The busiest shipped
   * page (SystemUser: 7 search fields, 4 keyword columns, 3 tab conditions) needs 14; 50 leaves room for
   * a hospital's extra tabs and custom-search rows. 20 tabs × 200 `like`s (4,000) froze a process.
   */
  conditions: 50,
  /** Values in one `in` / `not in`: multiselects offer tens of choices. */
  inValues: 500,
  /**
   * Bound values in one statement. Far below SQLite's 32,766 and PostgreSQL's 65,535 variables, so a
   * request never reaches the driver's "too many SQL variables".
   */
  parameters: 2000,
  /** Characters of one filter value or keyword: longer than any filterable column a person types into. */
  valueLength: 200,
  /** Groups nested in groups: the search drawer builds two levels. */
  depth: 5,
  /** Tabs of one count request. */
  tabs: 20,
} as const;

export const WRITE_LIMITS = {
  /** Characters of a text value whose form field declares no maxLength (a declared maxLength wins). */
  textLength: 2000,
  /**
   * Characters of a whole written row as JSON. The largest shipped form (a case: 4,000-character
   * clinical diagnosis plus its other fields) stays far below it; 9 MB rows made lists take seconds.
   */
  bodyChars: 64 * 1024,
} as const;
