/**
 * Discord's documented request limits, checked by the emulator on every message, edit, interaction callback
 * and thread it receives, so that a payload Discord would refuse with 400 "Invalid Form Body" (code 50035) is
 * refused here too and a test fails on it. Sources: docs.discord.com/developers — resources/message (content
 * 2000, embeds 10, allowed mentions), resources/message#embed-object-embed-limits (title 256, description
 * 4096, 25 fields of 256/1024, 6000 in all), components/reference (5 action rows of 5 buttons or 1 select;
 * button label 80; custom_id 1–100; string select 1–25 options of label/value/description ≤ 100, placeholder
 * ≤ 150, min_values 0–25, max_values 1–25; Label ≤ 45 with description ≤ 100; text input custom_id ≤ 100,
 * placeholder ≤ 100, value and lengths ≤ 4000), interactions/receiving-and-responding#interaction-response-
 * object-modal (title ≤ 45, custom_id ≤ 100, 1–5 components), resources/channel#start-thread-from-message
 * (name 1–100, auto_archive_duration 60, 1440, 4320 or 10080).
 */
type Json = Record<string, unknown>;

/** Component type numbers (components/reference#component-object-component-types). */
const T = { row: 1, button: 2, stringSelect: 3, textInput: 4, label: 18 } as const;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function len(errors: string[], where: string, v: unknown, max: number, min = 0): void {
  if (v === undefined || v === null) {
    if (min > 0) errors.push(`${where}: required`);
    return;
  }
  const s = str(v);
  if (s === null) return void errors.push(`${where}: not a string`);
  if ([...s].length > max || [...s].length < min)
    errors.push(`${where}: length ${[...s].length} not in ${min}..${max}`);
}

function stringSelect(errors: string[], where: string, c: Json): void {
  len(errors, `${where}.custom_id`, c.custom_id, 100, 1);
  len(errors, `${where}.placeholder`, c.placeholder, 150);
  const options = arr(c.options) as Json[];
  if (options.length < 1 || options.length > 25) errors.push(`${where}.options: ${options.length} not in 1..25`);
  const values = new Set<string>();
  options.forEach((o, k) => {
    len(errors, `${where}.options[${k}].label`, o.label, 100, 1);
    len(errors, `${where}.options[${k}].value`, o.value, 100, 1);
    len(errors, `${where}.options[${k}].description`, o.description, 100);
    if (typeof o.value === 'string') {
      if (values.has(o.value)) errors.push(`${where}.options[${k}].value: duplicate`);
      values.add(o.value);
    }
  });
  const min = (c.min_values as number | undefined) ?? 1;
  const max = (c.max_values as number | undefined) ?? 1;
  if (min < 0 || min > 25) errors.push(`${where}.min_values: ${min} not in 0..25`);
  if (max < 1 || max > 25) errors.push(`${where}.max_values: ${max} not in 1..25`);
  if (max > options.length) errors.push(`${where}.max_values: ${max} > options ${options.length}`);
  if (min > max) errors.push(`${where}.min_values > max_values`);
  const defaults = options.filter((o) => o.default === true).length;
  if (defaults > max) errors.push(`${where}: ${defaults} default options > max_values ${max}`);
}

/** Errors of a message's components (legacy layout: action rows of buttons or one select). */
function messageComponents(errors: string[], components: unknown): void {
  const rows = arr(components) as Json[];
  if (rows.length > 5) errors.push(`components: ${rows.length} action rows > 5`);
  const ids = new Set<string>();
  rows.forEach((row, r) => {
    if (row.type !== T.row) return void errors.push(`components[${r}]: type ${String(row.type)} is not an action row`);
    const items = arr(row.components) as Json[];
    const selects = items.filter((c) => c.type === T.stringSelect).length;
    if (items.length === 0) errors.push(`components[${r}]: empty action row`);
    if (selects > 0 && items.length > 1) errors.push(`components[${r}]: a select must be alone in its row`);
    if (items.length > 5) errors.push(`components[${r}]: ${items.length} buttons > 5`);
    items.forEach((c, k) => {
      const where = `components[${r}].components[${k}]`;
      if (typeof c.custom_id === 'string') {
        if (ids.has(c.custom_id)) errors.push(`${where}.custom_id: duplicate in the message`);
        ids.add(c.custom_id);
      }
      if (c.type === T.button) {
        len(errors, `${where}.label`, c.label, 80);
        if (c.style === 5) {
          if (typeof c.url !== 'string') errors.push(`${where}: a link button needs a url`);
        } else len(errors, `${where}.custom_id`, c.custom_id, 100, 1);
      } else if (c.type === T.stringSelect) stringSelect(errors, where, c);
      else errors.push(`${where}: type ${String(c.type)} is not allowed in a message action row`);
    });
  });
}

function embeds(errors: string[], list: unknown): void {
  const es = arr(list) as Json[];
  if (es.length > 10) errors.push(`embeds: ${es.length} > 10`);
  let total = 0;
  es.forEach((e, k) => {
    len(errors, `embeds[${k}].title`, e.title, 256);
    len(errors, `embeds[${k}].description`, e.description, 4096);
    total += [...(str(e.title) ?? '')].length + [...(str(e.description) ?? '')].length;
    const fields = arr(e.fields) as Json[];
    if (fields.length > 25) errors.push(`embeds[${k}].fields: ${fields.length} > 25`);
    fields.forEach((f, j) => {
      len(errors, `embeds[${k}].fields[${j}].name`, f.name, 256, 1);
      len(errors, `embeds[${k}].fields[${j}].value`, f.value, 1024, 1);
      total += [...(str(f.name) ?? '')].length + [...(str(f.value) ?? '')].length;
    });
  });
  if (total > 6000) errors.push(`embeds: ${total} characters in all > 6000`);
}

/** Errors of a message body (create, edit, webhook, interaction message data); empty = valid. */
export function messageErrors(body: unknown): string[] {
  const errors: string[] = [];
  if (!body || typeof body !== 'object') return errors;
  const b = body as Json;
  len(errors, 'content', b.content, 2000);
  embeds(errors, b.embeds);
  messageComponents(errors, b.components);
  const am = b.allowed_mentions as Json | undefined;
  if (am) {
    const users = arr(am.users);
    if (users.length > 100) errors.push(`allowed_mentions.users: ${users.length} > 100`);
    if (users.length > 0 && arr(am.parse).includes('users'))
      errors.push('allowed_mentions: parse "users" together with users');
  }
  return errors;
}

/** Errors of a modal (interaction callback type 9). */
export function modalErrors(data: unknown): string[] {
  const errors: string[] = [];
  const d = (data ?? {}) as Json;
  len(errors, 'custom_id', d.custom_id, 100, 1);
  len(errors, 'title', d.title, 45, 1);
  const comps = arr(d.components) as Json[];
  if (comps.length < 1 || comps.length > 5) errors.push(`components: ${comps.length} not in 1..5`);
  comps.forEach((c, k) => {
    const where = `components[${k}]`;
    const inner =
      c.type === T.label
        ? (c.component as Json | undefined)
        : c.type === T.row
          ? ((arr(c.components)[0] ?? undefined) as Json | undefined)
          : undefined;
    if (c.type === T.label) {
      len(errors, `${where}.label`, c.label, 45, 1);
      len(errors, `${where}.description`, c.description, 100);
    } else if (c.type !== T.row)
      return void errors.push(`${where}: type ${String(c.type)} is not a label or action row`);
    if (!inner) return void errors.push(`${where}: no component`);
    if (inner.type === T.textInput) {
      len(errors, `${where}.component.custom_id`, inner.custom_id, 100, 1);
      len(errors, `${where}.component.placeholder`, inner.placeholder, 100);
      len(errors, `${where}.component.value`, inner.value, 4000);
      if (c.type === T.row) len(errors, `${where}.component.label`, inner.label, 45, 1);
      for (const k2 of ['min_length', 'max_length'] as const) {
        const v = inner[k2];
        if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 4000))
          errors.push(`${where}.component.${k2}: ${String(v)} not in 0..4000`);
      }
    } else if (inner.type === T.stringSelect) {
      if (c.type !== T.label) errors.push(`${where}: a select in a modal must be in a label`);
      stringSelect(errors, `${where}.component`, inner);
    } else errors.push(`${where}: component type ${String(inner.type)} not allowed in a modal`);
  });
  return errors;
}

/** Errors of a start-thread request body. */
export function threadErrors(body: unknown): string[] {
  const errors: string[] = [];
  const b = (body ?? {}) as Json;
  len(errors, 'name', b.name, 100, 1);
  const d = b.auto_archive_duration;
  if (d !== undefined && ![60, 1440, 4320, 10080].includes(d as number))
    errors.push(`auto_archive_duration: ${String(d)} not one of 60, 1440, 4320, 10080`);
  return errors;
}

/** The 400 answer Discord gives a payload that breaks a limit. */
export function invalidFormBody(errors: string[]): { message: string; code: number; errors: Json } {
  return {
    message: 'Invalid Form Body',
    code: 50035,
    errors: Object.fromEntries(
      errors.map((e, i) => [String(i), { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: e }] }]),
    ),
  };
}
