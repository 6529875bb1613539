// Reads a V8 .cpuprofile (node --cpu-prof, or BENCH_CPU_PROFILE of a bench) and prints where the time went:
// self time by function and by file (or package), top 30 each, and the share of idle, GC and program time.
// Run: node bench/cpu-profile-top.ts <file.cpuprofile> [count]
import fs from 'node:fs';
import path from 'node:path';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const file = process.argv[2];
if (!file) throw new Error('usage: node bench/cpu-profile-top.ts <file.cpuprofile> [count]');
const count = Number(process.argv[3] ?? 30);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const root = process.cwd();

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  // timeDeltas[i] is the time before sample i; the sample's own duration is the next delta.
  const duration = profile.timeDeltas[i + 1] ?? 0;
  selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + duration);
}
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);

/** A package name for node_modules files, a path relative to the project for ours, the bare name for built-ins. */
function place(url: string): string {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  const inModules = clean.lastIndexOf('node_modules/');
  if (inModules >= 0) {
    const rest = clean.slice(inModules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (clean.startsWith('node:')) return clean;
  return path.relative(root, clean) || clean;
}

// Each node's nearest caller in this project's src/ (itself when it is one): library time charged to our code.
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
function projectFrame(id: number): string {
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const { functionName, url } = byId.get(current)!.callFrame;
    const where = place(url);
    if (where.startsWith('src/')) return `${functionName || '(anonymous)'}  ${where}`;
  }
  return '(no project frame)';
}

const byFunction = new Map<string, number>();
const byProjectFrame = new Map<string, number>();
const byPlace = new Map<string, number>();
let idle = 0;
let gc = 0;
let program = 0;
for (const [id, micros] of selfMicros) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  if (functionName === '(idle)') {
    idle += micros;
    continue;
  }
  if (functionName === '(garbage collector)') gc += micros;
  if (functionName === '(program)') program += micros;
  const where = place(url);
  const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  byPlace.set(where, (byPlace.get(where) ?? 0) + micros);
  const frame = projectFrame(id);
  byProjectFrame.set(frame, (byProjectFrame.get(frame) ?? 0) + micros);
}
// Inclusive time of this project's functions: every sample counts once for each src/ function on its stack (once
// however often the function recurses), so a route's handler or a job shows what it costs with all it calls.
const inclusive = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const { functionName, url, lineNumber } = byId.get(current)!.callFrame;
    const where = place(url);
    if (!where.startsWith('src/')) continue;
    const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }
}
const busy = total - idle;
const ms = (micros: number) => (micros / 1000).toFixed(0).padStart(7);
const share = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;

console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)}%), ` +
    `GC ${share(gc).trim()} of busy, (program) ${share(program).trim()} of busy`,
);
const tables = [
  ['self time by function', byFunction],
  ['self time by file or package', byPlace],
  ['self time charged to the nearest function of src/ on the stack', byProjectFrame],
  ['inclusive time of functions of src/ (with everything they call)', inclusive],
] as const;
for (const [title, table] of tables) {
  console.log(`\n${title} (ms, share of busy time)`);
  for (const [key, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${ms(micros)} ${share(micros)}  ${key}`);
}

// `--callers NAME`: the call paths (5 frames up) that spend the self time of functions named NAME.
const callersOf = process.argv.indexOf('--callers');
if (callersOf > 0) {
  const name = process.argv[callersOf + 1];
  const paths = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    if (byId.get(id)!.callFrame.functionName !== name) continue;
    const frames: string[] = [];
    for (
      let current = parentOf.get(id);
      current !== undefined && frames.length < Number(process.env.DEPTH ?? 6);
      current = parentOf.get(current)
    ) {
      const { functionName, url, lineNumber } = byId.get(current)!.callFrame;
      frames.push(`${functionName || '(anonymous)'}@${place(url)}:${lineNumber + 1}`);
    }
    const key = frames.join(' < ');
    paths.set(key, (paths.get(key) ?? 0) + micros);
  }
  console.log(`\ncallers of ${name}`);
  for (const [key, micros] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`${ms(micros)} ${share(micros)}  ${key}`);
}
