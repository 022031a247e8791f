// Spawns notifications-child.js and collects what it reports: the Kafka messages its producer was
// handed (into the array given, shared by every replica of a test) and its log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./notifications-child.js', import.meta.url));
const spawned = new Set<ChildProcess>();

/** SIGKILLs every replica still running: register it before starting any, so a failed start leaves none behind. */
export function killReplicas(): void {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export interface Replica {
  child: ChildProcess;
  /** Its stderr so far: the consumers' log lines. */
  logs(): string;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/** MongoDB for checkpoints and deliveries, and a real broker, instead of the data directory's files and the producer seam. */
export interface ReplicaServers {
  mongodbUrl: string;
  database: string;
  kafkaBrokers: string[];
  topic: string;
}

export async function startReplica(
  args: { dataDir: string; webhookUrl: string; secret: string; smtpUrl: string; servers?: ReplicaServers | undefined },
  kafka: string[],
): Promise<Replica> {
  const argv = [CHILD, args.dataDir, args.webhookUrl, args.secret, args.smtpUrl, ...(args.servers ? [JSON.stringify(args.servers)] : [])];
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.add(child);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        if (line === 'ready') resolve();
        else if (line.startsWith('kafka ')) kafka.push(line.slice('kafka '.length));
      }
    });
    child.once('exit', (code) => reject(new Error(`replica exited (${code}) before ready: ${err}`)));
  });
  return {
    child,
    logs: () => err,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

/** The event id of a received e-mail, from its Message-ID (`<evt_<event id>@domain>`). */
export function mailEventId(raw: string): string | undefined {
  return /^Message-ID:\s*<(evt_[^@>]+)@/im.exec(raw)?.[1];
}
