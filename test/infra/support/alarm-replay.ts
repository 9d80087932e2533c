/**
 * Replays metric series through the alarms' own definitions, read from a synthesized template:
 * each metric's period and statistic, the metric-math expression, the threshold and comparison,
 * datapoints to alarm out of evaluation periods, the missing-data treatment, and composite alarm
 * rules. A CloudWatch alarm's window slides: it is evaluated every minute over the periods ending
 * then (docs/operate.md, "How the alarms are evaluated").
 *
 * The series are per minute, by metric (namespace/name/statistic): for a Sum or a trimmed count
 * (TC), what was counted in that minute; for an Average or a Maximum, the minute's datapoint.
 */

/** A per-minute series: undefined where nothing was published that minute. */
export type Series = readonly (number | undefined)[];

/** `AWS/ApiGateway/Count`: the series of each metric, whatever its dimensions. */
export type Recording = Readonly<Record<string, Series>>;

interface MetricStat {
  readonly Metric: { readonly Namespace: string; readonly MetricName: string };
  readonly Period: number;
  readonly Stat: string;
}

interface MetricDataQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly MetricStat?: MetricStat;
  readonly ReturnData?: boolean;
}

export interface AlarmDefinition {
  readonly AlarmName: unknown;
  readonly Threshold: number;
  readonly ComparisonOperator: string;
  readonly EvaluationPeriods: number;
  readonly DatapointsToAlarm?: number;
  readonly TreatMissingData?: string;
  readonly Metrics?: readonly MetricDataQuery[];
  readonly Namespace?: string;
  readonly MetricName?: string;
  readonly Statistic?: string;
  readonly ExtendedStatistic?: string;
  readonly Period?: number;
}

interface TemplateResource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
}

export function metricKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The value of one statistic over minutes [from, to) of a series; undefined when none was published. */
function aggregate(series: Series | undefined, statistic: string, from: number, to: number): number | undefined {
  if (!series) return undefined;
  if (statistic === 'Sum' || statistic === 'Average' || /^TC\(/i.test(statistic)) {
    const { sums, counts } = prefixesOf(series);
    const start = Math.max(0, Math.min(from, series.length));
    const stop = Math.max(0, Math.min(to, series.length));
    const count = counts[stop] - counts[start];
    if (count === 0) return undefined;
    const sum = sums[stop] - sums[start];
    return statistic === 'Average' ? sum / count : sum;
  }
  const values: number[] = [];
  for (let minute = Math.max(0, from); minute < Math.min(to, series.length); minute += 1) {
    const value = series[minute];
    if (value !== undefined) values.push(value);
  }
  if (values.length === 0) return undefined;
  if (statistic === 'Sum' || statistic === 'SampleCount' || /^TC\(/i.test(statistic)) {
    return values.reduce((sum, value) => sum + value, 0);
  }
  if (statistic === 'Average') return values.reduce((sum, value) => sum + value, 0) / values.length;
  if (statistic === 'Maximum') return Math.max(...values);
  if (statistic === 'Minimum') return Math.min(...values);
  throw new Error(`The replay does not know the statistic ${statistic}`);
}

const prefixes = new WeakMap<Series, { sums: number[]; counts: number[] }>();

/** Running sums of a series and of its published minutes: any window's Sum or Average in two look-ups. */
function prefixesOf(series: Series): { sums: number[]; counts: number[] } {
  let found = prefixes.get(series);
  if (!found) {
    const sums = [0];
    const counts = [0];
    series.forEach((value, minute) => {
      sums.push(sums[minute] + (value ?? 0));
      counts.push(counts[minute] + (value === undefined ? 0 : 1));
    });
    found = { sums, counts };
    prefixes.set(series, found);
  }
  return found;
}

// --- metric math: the subset the alarms use (arithmetic, comparisons, IF, FILL, MAX of an array) ---

type Token = { kind: 'number'; value: number } | { kind: 'name'; value: string } | { kind: 'op'; value: string };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?(?:e-?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(>=|<=|==|!=|&&|\|\||[-+*/(),<>[\]]))/gy;
  let match: RegExpExecArray | null;
  let position = 0;
  while (position < expression.trimEnd().length && (match = pattern.exec(expression)) !== null) {
    position = pattern.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: 'name', value: match[2] });
    else tokens.push({ kind: 'op', value: match[3] });
  }
  if (position < expression.trimEnd().length)
    throw new Error(`Cannot read the expression at ${position}: ${expression}`);
  return tokens;
}

type Value = number | undefined;
type Node = (lookup: (id: string) => Value) => Value | Value[];

const precedence: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '>': 4,
  '<=': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
};

function binary(op: string, a: Value, b: Value): Value {
  if (a === undefined || b === undefined) return undefined;
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '>=':
      return a >= b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '&&':
      return a !== 0 && b !== 0 ? 1 : 0;
    case '||':
      return a !== 0 || b !== 0 ? 1 : 0;
    default:
      throw new Error(`Unknown operator ${op}`);
  }
}

const scalar = (value: Value | Value[]): Value => {
  if (Array.isArray(value)) throw new Error('An array where a value was expected');
  return value;
};

export function parseExpression(expression: string): Node {
  const tokens = tokenize(expression);
  let index = 0;
  const peek = () => tokens[index];
  const expect = (value: string) => {
    const token = tokens[index++];
    if (token?.kind !== 'op' || token.value !== value) throw new Error(`Expected ${value} in ${expression}`);
  };
  const primary = (): Node => {
    const token = tokens[index++];
    if (!token) throw new Error(`Unexpected end of ${expression}`);
    if (token.kind === 'number') return () => token.value;
    if (token.kind === 'op' && token.value === '(') {
      const inner = parse(0);
      expect(')');
      return inner;
    }
    if (token.kind === 'op' && token.value === '[') {
      const items: Node[] = [parse(0)];
      while (peek()?.kind === 'op' && peek()!.value === ',') {
        index += 1;
        items.push(parse(0));
      }
      expect(']');
      return (lookup) => items.map((item) => scalar(item(lookup)));
    }
    if (token.kind === 'op' && token.value === '-') {
      const operand = primary();
      return (lookup) => {
        const value = scalar(operand(lookup));
        return value === undefined ? undefined : -value;
      };
    }
    if (token.kind === 'name' && peek()?.kind === 'op' && peek()!.value === '(') {
      index += 1;
      const args: Node[] = [parse(0)];
      while (peek()?.kind === 'op' && peek()!.value === ',') {
        index += 1;
        args.push(parse(0));
      }
      expect(')');
      switch (token.value.toUpperCase()) {
        case 'IF':
          return (lookup) => {
            const condition = scalar(args[0](lookup));
            if (condition === undefined) return undefined;
            return scalar(condition !== 0 ? args[1](lookup) : args.length > 2 ? args[2](lookup) : undefined);
          };
        case 'FILL':
          return (lookup) => scalar(args[0](lookup)) ?? scalar(args[1](lookup));
        case 'MAX':
          return (lookup) => {
            const values = args[0](lookup);
            if (!Array.isArray(values))
              throw new Error('MAX of one time series returns a scalar: an alarm needs an array');
            const defined = values.filter((value): value is number => value !== undefined);
            return defined.length === 0 ? undefined : Math.max(...defined);
          };
        default:
          throw new Error(`The replay does not know the function ${token.value}`);
      }
    }
    if (token.kind === 'name') return (lookup) => lookup(token.value);
    throw new Error(`Unexpected ${token.value} in ${expression}`);
  };
  const parse = (minimum: number): Node => {
    let left = primary();
    for (;;) {
      const token = peek();
      if (token?.kind !== 'op' || !(token.value in precedence) || precedence[token.value] <= minimum) return left;
      index += 1;
      const right = parse(precedence[token.value]);
      const l = left;
      left = (lookup) => binary(token.value, scalar(l(lookup)), scalar(right(lookup)));
    }
  };
  const node = parse(0);
  if (index !== tokens.length) throw new Error(`Left over in ${expression}`);
  return node;
}

// --- alarms ---

/** Each expression parsed once: a replay evaluates the same few expressions every minute for days. */
const parsedExpressions = new Map<string, Node>();
function parsed(expression: string): Node {
  let node = parsedExpressions.get(expression);
  if (!node) {
    node = parseExpression(expression);
    parsedExpressions.set(expression, node);
  }
  return node;
}

/** The alarm's value for the period ending at `end` (exclusive), in minutes. */
function datapoint(alarm: AlarmDefinition, recording: Recording, end: number): Value {
  if (alarm.Metrics) {
    const byId = new Map(alarm.Metrics.map((query) => [query.Id, query]));
    const cache = new Map<string, Value>();
    const valueOf = (id: string): Value => {
      if (cache.has(id)) return cache.get(id);
      const query = byId.get(id);
      if (!query) throw new Error(`No metric or expression ${id}`);
      let value: Value;
      if (query.MetricStat) {
        const { Metric, Period, Stat } = query.MetricStat;
        const minutes = Period / 60;
        value = aggregate(recording[metricKey(Metric.Namespace, Metric.MetricName)], Stat, end - minutes, end);
      } else {
        value = scalar(parsed(query.Expression!)(valueOf));
      }
      cache.set(id, value);
      return value;
    };
    const returned =
      alarm.Metrics.find((query) => query.ReturnData !== false && query.Expression !== undefined) ??
      alarm.Metrics.find((query) => query.ReturnData !== false);
    return valueOf(returned!.Id);
  }
  const statistic = alarm.Statistic ?? alarm.ExtendedStatistic!;
  return aggregate(recording[metricKey(alarm.Namespace!, alarm.MetricName!)], statistic, end - alarm.Period! / 60, end);
}

/** The alarm's period in minutes (every metric of an alarm has the same). */
export function periodMinutes(alarm: AlarmDefinition): number {
  const period = alarm.Metrics ? alarm.Metrics.find((query) => query.MetricStat)!.MetricStat!.Period : alarm.Period!;
  return period / 60;
}

function breaches(alarm: AlarmDefinition, value: number): boolean {
  switch (alarm.ComparisonOperator) {
    case 'GreaterThanOrEqualToThreshold':
      return value >= alarm.Threshold;
    case 'GreaterThanThreshold':
      return value > alarm.Threshold;
    case 'LessThanThreshold':
      return value < alarm.Threshold;
    case 'LessThanOrEqualToThreshold':
      return value <= alarm.Threshold;
    default:
      throw new Error(`Unknown comparison ${alarm.ComparisonOperator}`);
  }
}

/** Whether the alarm is in ALARM when evaluated at `minute` (its datapoints end there). */
export function inAlarmAt(alarm: AlarmDefinition, recording: Recording, minute: number): boolean {
  const period = periodMinutes(alarm);
  const evaluated = alarm.EvaluationPeriods;
  const needed = alarm.DatapointsToAlarm ?? evaluated;
  let breaching = 0;
  for (let i = 0; i < evaluated; i += 1) {
    const value = datapoint(alarm, recording, minute - i * period);
    if (value === undefined) {
      if (alarm.TreatMissingData === 'breaching') breaching += 1;
    } else if (breaches(alarm, value)) {
      breaching += 1;
    }
  }
  return breaching >= needed;
}

/** Every alarm of the templates, metric and composite, by logical id. */
export function alarmsOfTemplates(templates: readonly { Resources: Record<string, TemplateResource> }[]): {
  readonly metricAlarms: ReadonlyMap<string, AlarmDefinition>;
  readonly compositeRules: ReadonlyMap<string, string>;
} {
  const metricAlarms = new Map<string, AlarmDefinition>();
  const compositeRules = new Map<string, string>();
  for (const { Resources } of templates) {
    for (const [id, resource] of Object.entries(Resources)) {
      if (resource.Type === 'AWS::CloudWatch::Alarm')
        metricAlarms.set(id, resource.Properties as unknown as AlarmDefinition);
      if (resource.Type === 'AWS::CloudWatch::CompositeAlarm')
        compositeRules.set(id, ruleText(resource.Properties.AlarmRule));
    }
  }
  return { metricAlarms, compositeRules };
}

/** A composite rule with each alarm's ARN written as its logical id. */
function ruleText(rule: unknown): string {
  if (typeof rule === 'string') return rule;
  const join = (rule as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) throw new Error(`Cannot read the rule ${JSON.stringify(rule)}`);
  return join[1]
    .map((part) => {
      if (typeof part === 'string') return part;
      const getAtt = (part as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
      if (getAtt) return getAtt[0];
      throw new Error(`Cannot read the rule part ${JSON.stringify(part)}`);
    })
    .join(join[0]);
}

/** A composite rule's state, given each alarm's: ALARM("id"), AND, OR, NOT and parentheses. */
export function compositeInAlarm(rule: string, stateOf: (id: string) => boolean): boolean {
  const expression = rule
    .replace(/ALARM\("([^"]+)"\)/g, (_all, id: string) => (stateOf(id) ? '1' : '0'))
    .replace(/\bAND\b/g, '&&')
    .replace(/\bOR\b/g, '||');
  if (/NOT|OK\(|INSUFFICIENT_DATA\(/.test(expression)) throw new Error(`The replay does not know this rule: ${rule}`);
  return scalar(parseExpression(expression)(() => undefined)) === 1;
}

/**
 * The minutes at which each alarm (metric or composite) is in ALARM, evaluated every `step`
 * minutes from `from` to the end of the recording.
 */
export function alarmTimeline(
  alarms: ReturnType<typeof alarmsOfTemplates>,
  recording: Recording,
  minutes: number,
  step = 1,
  from = step,
): Map<string, number[]> {
  const timeline = new Map<string, number[]>();
  const mark = (id: string, minute: number) => timeline.set(id, [...(timeline.get(id) ?? []), minute]);
  for (let minute = from; minute <= minutes; minute += step) {
    const states = new Map<string, boolean>();
    for (const [id, alarm] of alarms.metricAlarms) {
      const state = inAlarmAt(alarm, recording, minute);
      states.set(id, state);
      if (state) mark(id, minute);
    }
    for (const [id, rule] of alarms.compositeRules) {
      if (compositeInAlarm(rule, (alarmId) => states.get(alarmId) ?? false)) mark(id, minute);
    }
  }
  return timeline;
}
