/**
 * The compliance report of a cycle, without I/O: one result per rule (pass, warn or fail) with its public
 * source and the findings that decided it, each with its evidence; and its CSV rendering. The sources and
 * thresholds are in docs/domain.md, "Compliance".
 */
import { CO2_MAX_PPM, NH3_MAX_PPM, type HouseAir } from './air.js';
import { adherenceOf, type VaccinationOccurrence } from './vaccination.js';
import { saleWindows, type WithdrawalWindow } from './withdrawals.js';
import { layingSpan, type LotDraw } from '../eggs/lots.js';

export type RuleStatus = 'pass' | 'warn' | 'fail';

export interface Finding {
  status: Exclude<RuleStatus, 'pass'>;
  message: string;
  date: string | null;
  evidence: Record<string, unknown>;
}

export interface RuleResult {
  rule: string;
  title: string;
  source: string;
  status: RuleStatus;
  summary: string;
  findings: Finding[];
}

export const RULES = {
  withdrawal_sales: {
    title: 'No sale of birds or eggs during a withdrawal period',
    source: 'Regulation (EU) 2019/6, Art. 115(1) and Art. 108; Regulation (EC) No 470/2009 (maximum residue limits)',
  },
  medicine_records: {
    title: 'Medicine records carry the Art. 108 fields',
    source: 'Regulation (EU) 2019/6, Art. 108(2)',
  },
  stocking_density: {
    title: 'Stocking density within the limit per house and day',
    source:
      'Broilers: Council Directive 2007/43/EC, Art. 3 (33, 39 or 42 kg/m²); laying hens: Council Directive 1999/74/EC, Art. 4(1)(4) ' +
      '(alternative systems, free range indoors: 9 hens/m² of usable area) and Art. 6(1)(a) (enriched cages: 750 cm² of cage area per hen); ' +
      'free-range run: Regulation (EC) No 589/2008, Annex II, 1(c) (4 m² per hen); pullets before laying maturity: no EU limit',
  },
  salmonella_sampling: {
    title: 'Salmonella sampling done when due',
    source:
      'Regulation (EC) No 2160/2003, Annex II, Part B (rearing flocks of laying hens: day-old chicks, and pullets two weeks before moving to the laying phase or unit); ' +
      'Regulation (EU) No 517/2011, Annex, 2.1 (laying flocks: at the operator’s initiative every 15 weeks, the first at 24 ± 2 weeks); ' +
      'Regulation (EU) No 200/2012, Annex, 2.1 (broilers: in the three weeks before slaughter)',
  },
  record_completeness: {
    title: 'Daily records, causes of mortality and weighings kept',
    source: 'Council Directive 2007/43/EC, Annex I(3) (records per house); Council Directive 98/58/EC, Annex 5 and 6',
  },
  vaccination_adherence: {
    title: 'Scheduled vaccinations given on their date, and recorded',
    source:
      'Records: Regulation (EU) 2019/6, Art. 108 (veterinary medicinal products administered, vaccines included) and Council Directive 98/58/EC, Annex, point 5 ' +
      '(any medical treatment given). Keeping to the vaccination programme is good practice, not a legal rule: its dates are the farm’s schedules',
  },
  air_quality: {
    title: 'Ammonia and carbon dioxide within the limits, hour by hour',
    source:
      'Council Directive 2007/43/EC, Annex II, point 3(a): NH₃ ≤ 20 ppm and CO₂ ≤ 3,000 ppm at the level of the chickens’ heads; ' +
      'binding for broilers stocked above 33 kg/m² (Art. 3(3)), a reference otherwise',
  },
  lighting: {
    title: 'Photoperiod and dark period per recorded day, and the step-up',
    source:
      'Council Directive 2007/43/EC, Annex I, point 6 (broilers: from 7 days of age until 3 days before slaughter, at least 6 h of darkness in every 24 h ' +
      'with one uninterrupted period of at least 4 h, dimming excluded); Council Directive 1999/74/EC, Annex, point 3 (laying hens: an uninterrupted ' +
      'period of darkness lasting, by way of indication, about one third of the day)',
  },
} as const;
export type RuleId = keyof typeof RULES;

export const result = (rule: RuleId, findings: Finding[], pass: string, summary?: string, source: string = RULES[rule].source): RuleResult => {
  const status: RuleStatus = findings.some((f) => f.status === 'fail') ? 'fail' : findings.length ? 'warn' : 'pass';
  return { rule, ...RULES[rule], source, status, summary: status === 'pass' ? pass : (summary ?? `${findings.length} finding(s)`), findings };
};

export interface SaleRecord {
  id: string;
  type: string;
  date: string;
  quantity: number;
  override: { reason: string } | null;
  createdBy: string;
  /** An egg sale: the laying days its eggs came from (judged against the egg windows). */
  fromLots?: LotDraw[];
}

/** Sales inside a window: overridden (warn, audited) or not (fail: the medication was recorded after the sale, or predates the check). */
export function withdrawalSalesRule(windows: readonly WithdrawalWindow[], sales: readonly SaleRecord[]): RuleResult {
  const findings: Finding[] = [];
  for (const s of sales) {
    const covering = saleWindows(windows, s);
    if (!covering.length) continue;
    const eggs = s.type === 'egg_sale';
    const endOf = (w: WithdrawalWindow) => (eggs ? w.eggEndDate : w.meatEndDate) ?? w.endDate;
    const span = eggs ? layingSpan(s.fromLots) : undefined;
    const laid = span ? ` (eggs laid ${span.from === span.to ? `on ${span.from}` : `${span.from} to ${span.to}`})` : '';
    const evidence = {
      saleId: s.id,
      saleType: s.type,
      quantity: s.quantity,
      recordedBy: s.createdBy,
      windows: covering.map((w) => ({ movementId: w.movementId, product: w.product, treatmentStart: w.date, endsOn: endOf(w) })),
      ...(s.fromLots ? { laidOn: s.fromLots.map((d) => d.laidOn) } : {}),
      ...(s.override ? { override: s.override } : {}),
    };
    const products = covering.map((w) => `${w.product ?? 'a medication'} until ${endOf(w)}`).join(', ');
    findings.push(
      s.override
        ? {
            status: 'warn',
            date: s.date,
            message: `Sale ${s.id}${laid} went ahead during the withdrawal period (${products}) with an audited override: ${s.override.reason}`,
            evidence,
          }
        : {
            status: 'fail',
            date: s.date,
            message: eggs
              ? `Sale ${s.id}${laid} sold eggs laid inside the withdrawal period (${products}) without an override`
              : `Sale ${s.id} is dated inside the withdrawal period (${products}) without an override`,
            evidence,
          },
    );
  }
  return result('withdrawal_sales', findings, `${sales.length} sale(s), none during a withdrawal period`);
}

/** The Art. 108 fields a medication movement should carry, and the name each goes by in the movement. */
export const ART_108_FIELDS = [
  { field: 'product', label: 'name of the medicinal product' },
  { field: 'quantityAdministered', label: 'quantity administered' },
  { field: ['supplier', 'purchaseReference'], label: 'supplier or proof of purchase' },
  { field: 'prescribedBy', label: 'prescribing veterinarian' },
  { field: 'withdrawalDays', label: 'withdrawal period (even when zero)' },
  { field: 'treatmentDays', label: 'duration of the treatment' },
] as const;

export function missingArt108Fields(fields: Record<string, unknown>): string[] {
  const has = (f: string) => fields[f] !== undefined && fields[f] !== null && fields[f] !== '';
  return ART_108_FIELDS.filter((x) => (typeof x.field === 'string' ? !has(x.field) : !x.field.some(has))).map((x) => x.label);
}

export function medicineRecordsRule(medications: ReadonlyArray<{ id: string; date: string; fields: Record<string, unknown> }>): RuleResult {
  const findings: Finding[] = [];
  for (const m of medications) {
    const missing = missingArt108Fields(m.fields);
    if (missing.length)
      findings.push({
        status: 'warn',
        date: m.date,
        message: `Medication ${m.id} lacks: ${missing.join(', ')}`,
        evidence: { movementId: m.id, product: m.fields.product ?? null, missing },
      });
  }
  return result('medicine_records', findings, `${medications.length} medication record(s), all complete`);
}

export interface CompletenessInput {
  /** Days the cycle ran so far (start to today or its end). */
  days: readonly string[];
  dailyRecordDates: ReadonlySet<string>;
  /** Mortality movements without a cause (or `unknown`). */
  mortalityWithoutCause: ReadonlyArray<{ id: string; date: string; quantity: number }>;
  weighingDates: readonly string[];
  /** Longest gap between weighings that is still on schedule, days. */
  weighingIntervalDays: number;
  daysBetween: (a: string, b: string) => number;
}

export function recordCompletenessRule(c: CompletenessInput): RuleResult {
  const findings: Finding[] = [];
  const missing = c.days.filter((d) => !c.dailyRecordDates.has(d));
  if (missing.length)
    findings.push({
      status: 'warn',
      date: missing[0]!,
      message: `${missing.length} day(s) without a daily record`,
      evidence: { dates: missing.slice(0, 100), count: missing.length },
    });
  for (const m of c.mortalityWithoutCause)
    findings.push({
      status: 'warn',
      date: m.date,
      message: `${m.quantity} dead bird(s) on ${m.date} without a cause`,
      evidence: { movementId: m.id, quantity: m.quantity },
    });
  const weighings = [...new Set(c.weighingDates)].sort();
  const first = c.days[0];
  const last = c.days.at(-1);
  if (first && last) {
    let prev = first;
    for (const w of [...weighings.filter((d) => d >= first && d <= last), last]) {
      const gap = c.daysBetween(prev, w);
      if (gap > c.weighingIntervalDays)
        findings.push({
          status: 'warn',
          date: w,
          message: `No weighing for ${gap} days (${prev} to ${w}); the schedule is every ${c.weighingIntervalDays} days`,
          evidence: { from: prev, to: w, gapDays: gap },
        });
      prev = w;
    }
  }
  return result('record_completeness', findings, `${c.days.length} day(s) recorded, mortality causes given, weighings on schedule`);
}

/**
 * Vaccination adherence: each occurrence of the cycle's vaccination schedules up to today (see
 * ./vaccination.ts). Missed (no record at all) fails; late or skipped (with its reason) warns; due today
 * is no finding. `programmes`: the sources of the programme templates the schedules were applied from.
 */
export function vaccinationAdherenceRule(
  occurrences: readonly VaccinationOccurrence[],
  today: string,
  localDateOf: (iso: string) => string,
  programmes: ReadonlyArray<{ id: string; sources: ReadonlyArray<{ title: string; url: string }> }> = [],
  schedules = 0,
): RuleResult {
  const findings: Finding[] = [];
  const counts = { on_time: 0, late: 0, skipped: 0, missed: 0, due: 0 };
  for (const o of [...occurrences].sort((a, b) => (a.date === b.date ? a.scheduleId.localeCompare(b.scheduleId) : a.date < b.date ? -1 : 1))) {
    const a = adherenceOf(o, today, localDateOf);
    counts[a.status] += 1;
    const evidence = {
      scheduleId: o.scheduleId,
      title: o.title,
      vaccine: o.vaccine,
      method: o.method,
      programme: o.programme,
      date: o.date,
      status: a.status,
      outcome: o.outcome ? { ...o.outcome, doneOn: a.doneOn } : null,
      daysLate: a.daysLate,
    };
    if (a.status === 'missed')
      findings.push({ status: 'fail', date: o.date, message: `“${o.title}” of ${o.date} has no record: neither done nor skipped`, evidence });
    if (a.status === 'late')
      findings.push({
        status: 'warn',
        date: o.date,
        message: `“${o.title}” of ${o.date} was recorded done on ${a.doneOn}, ${a.daysLate} day(s) late`,
        evidence,
      });
    if (a.status === 'skipped')
      findings.push({ status: 'warn', date: o.date, message: `“${o.title}” of ${o.date} was skipped: ${o.outcome?.reason ?? 'no reason given'}`, evidence });
  }
  const past = counts.on_time + counts.late + counts.skipped + counts.missed;
  const tail = counts.due ? `; ${counts.due} due today` : '';
  const summary = `${counts.on_time} on time, ${counts.late} late, ${counts.skipped} skipped, ${counts.missed} missed of ${past + counts.due} up to ${today}${tail}`;
  const pass =
    schedules === 0 && occurrences.length === 0
      ? 'No vaccination schedule on this cycle: nothing to check'
      : past + counts.due === 0
        ? `No vaccination due up to ${today}`
        : summary;
  const source = programmes.length
    ? `${RULES.vaccination_adherence.source}; programme${programmes.length > 1 ? 's' : ''} applied: ${programmes
        .map((p) => `${p.id} (${p.sources.map((s) => `${s.title}, ${s.url}`).join('; ')})`)
        .join('; ')}`
    : RULES.vaccination_adherence.source;
  return result('vaccination_adherence', findings, pass, summary, source);
}

/**
 * Air quality per house (see ./air.ts). Hours over a limit fail where the limits bind (`binding`: a
 * broiler farm declaring a tier above 33 kg/m²), else warn; hours without data (or with one gas only)
 * warn; a house without any NH₃ or CO₂ data, or a flock without a house, warns "not checked".
 */
export function airQualityRule(houses: readonly HouseAir[], binding: boolean, why: string | null = null): RuleResult {
  const findings: Finding[] = [];
  if (houses.length === 0)
    findings.push({ status: 'warn', date: null, message: why ?? 'The flock has no house: air quality cannot be checked', evidence: { binding } });
  const limits = `NH₃ ≤ ${NH3_MAX_PPM} ppm and CO₂ ≤ ${CO2_MAX_PPM.toLocaleString('en')} ppm`;
  const label = (h: HouseAir) => `house ${h.houseName ?? h.houseId}`;
  for (const h of houses) {
    const evidence = {
      houseId: h.houseId,
      houseName: h.houseName,
      hours: h.hours,
      compliantHours: h.compliant,
      overHours: h.over,
      partialHours: h.partial,
      hoursWithoutData: h.noData,
      compliantPct: h.compliantPct,
      worst: h.worst,
      binding,
      limits: { nh3Ppm: NH3_MAX_PPM, co2Ppm: CO2_MAX_PPM },
    };
    if (h.hours > 0 && h.noData === h.hours) {
      findings.push({
        status: 'warn',
        date: null,
        message: `No NH₃ or CO₂ readings in ${label(h)} over its ${h.hours} hour(s): not checked`,
        evidence,
      });
      continue;
    }
    if (h.over > 0) {
      const first = h.overHours[0]!;
      findings.push({
        status: binding ? 'fail' : 'warn',
        date: first.hour.slice(0, 10),
        message:
          `${h.over} of ${h.hours} hour(s) over ${limits} in ${label(h)} (first ${first.hour}:00 UTC)` +
          `${binding ? '' : '; the limits bind above 33 kg/m² only'}`,
        evidence: { ...evidence, hoursOver: h.overHours.slice(0, 100) },
      });
    }
    const missing = h.noData + h.partial;
    if (missing > 0)
      findings.push({
        status: 'warn',
        date: null,
        message: `${missing} of ${h.hours} hour(s) in ${label(h)} without both NH₃ and CO₂ readings (${h.partial} with one gas only): not counted as compliant`,
        evidence,
      });
  }
  const line = (h: HouseAir) =>
    h.hours === 0
      ? `${label(h)}: no complete hour yet`
      : `${label(h)}: ${h.compliantPct ?? 0}% of ${h.hours} hour(s) within ${limits}` +
        `${h.over ? `, ${h.over} over` : ''}${h.noData + h.partial ? `, ${h.noData + h.partial} without data` : ''}`;
  const summary = houses.length ? houses.map(line).join('; ') : 'Not checked: no house';
  return result('air_quality', findings, summary, summary);
}

export const overallStatus = (rules: readonly { status: RuleStatus }[]): RuleStatus =>
  rules.some((r) => r.status === 'fail') ? 'fail' : rules.some((r) => r.status === 'warn') ? 'warn' : 'pass';

export const REPORT_CSV_COLUMNS = ['rule', 'title', 'source', 'ruleStatus', 'summary', 'findingStatus', 'date', 'message', 'evidence'] as const;

/** The CSV rows: one per finding, and one for a rule without findings (so every rule and its source is there). */
export function reportRows(rules: readonly RuleResult[]): unknown[][] {
  const rows: unknown[][] = [];
  for (const r of rules) {
    const head = [r.rule, r.title, r.source, r.status, r.summary];
    if (r.findings.length === 0) rows.push([...head, '', '', '', '']);
    for (const f of r.findings) rows.push([...head, f.status, f.date ?? '', f.message, JSON.stringify(f.evidence)]);
  }
  return rows;
}
