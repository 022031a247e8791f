// `--name N` from a benchmark's arguments, else the fallback.
export function numberOption(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}
