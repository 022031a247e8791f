// scripts/commit-subject.js, git's commit-msg hook (scripts/git-hooks/commit-msg): a subject over 72
// characters is refused, saying by how much, and no commit is made; 72 passes; git's comment lines
// are not the subject, and the subjects git writes itself pass. In a scratch repository with the hook
// installed as docs/architecture.md says, and on a range of commits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';

const script = fileURLToPath(new URL('../../../scripts/commit-subject.js', import.meta.url));
const hooks = fileURLToPath(new URL('../../../scripts/git-hooks', import.meta.url));
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` };

const subject = (length: number) => `planner: ${'x'.repeat(length - 'planner: '.length)}`;

function checkMessage(t: Test, message: string) {
  const dir = mkdtempSync(join(tmpdir(), 'commit-subject-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  return spawnSync(process.execPath, [script, file], { encoding: 'utf8' });
}

t.test('72 characters pass, 73 are refused with how far over', async (t) => {
  t.equal(checkMessage(t, `${subject(72)}\n\nThe why, in a body of any length: ${'y'.repeat(200)}\n`).status, 0);
  const refused = checkMessage(t, `${subject(73)}\n\nbody\n`);
  t.equal(refused.status, 1);
  t.match(refused.stderr, 'commit refused: the subject is 73 characters, 1 over 72');
  const long = checkMessage(t, `${subject(204)}\n`);
  t.match(long.stderr, 'the subject is 204 characters, 132 over 72');
});

t.test("git's comment lines and blank lines before the subject are not the subject", async (t) => {
  t.equal(checkMessage(t, `\n# ${'comment '.repeat(20)}\n${subject(60)}\n`).status, 0);
  t.equal(checkMessage(t, `# comment\n\n${subject(80)}\n`).status, 1);
  t.equal(checkMessage(t, '# only comments: git aborts an empty message itself\n').status, 0);
});

t.test('characters are counted, not bytes', async (t) => {
  t.equal(checkMessage(t, `${'é'.repeat(72)}\n`).status, 0);
  t.equal(checkMessage(t, `${'é'.repeat(73)}\n`).status, 1);
});

t.test('the subjects git writes itself pass: merges, reverts, fixups', async (t) => {
  t.equal(checkMessage(t, `Merge branch 'issue-60-planner' into main ${'z'.repeat(60)}\n`).status, 0);
  t.equal(checkMessage(t, `Revert "${subject(72)}"\n`).status, 0);
  t.equal(checkMessage(t, `fixup! ${subject(72)}\n`).status, 0);
});

function scratchRepository(t: Test): (...args: string[]) => ReturnType<typeof spawnSync> {
  const dir = mkdtempSync(join(tmpdir(), 'commit-subject-repo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, encoding: 'utf8', env });
  git('init', '-q');
  git('config', 'core.hooksPath', hooks);
  return git;
}

t.test('installed as the commit-msg hook, it refuses a long subject and no commit is made', async (t) => {
  const git = scratchRepository(t);
  const long = git('commit', '-q', '--allow-empty', '-m', subject(90), '-m', 'why');
  t.not(long.status, 0);
  t.match(long.stderr, 'commit refused: the subject is 90 characters, 18 over 72');
  t.not(git('rev-parse', '--verify', '-q', 'HEAD').status, 0, 'no commit');
  const short = git('commit', '-q', '--allow-empty', '-m', subject(72), '-m', 'why, with figures: 1.34x');
  t.equal(short.status, 0, String(short.stderr));
  t.equal(String(git('log', '--format=%s').stdout).trim(), subject(72));
});

t.test('--range names each commit of a range whose subject is too long', async (t) => {
  const git = scratchRepository(t);
  git('config', 'core.hooksPath', '/nonexistent');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('commit', '-q', '--allow-empty', '-m', subject(100));
  git('commit', '-q', '--allow-empty', '-m', subject(50));
  const cwd = String(git('rev-parse', '--show-toplevel').stdout).trim();
  const all = spawnSync(process.execPath, [script, '--range', 'HEAD~2..HEAD'], { cwd, encoding: 'utf8' });
  t.equal(all.status, 1);
  t.match(all.stderr, `${subject(100)}\n  the subject is 100 characters, 28 over 72`);
  t.match(all.stdout, 'commit subjects in HEAD~2..HEAD: 1 over 72 characters');
  const last = spawnSync(process.execPath, [script, '--range', 'HEAD~1..HEAD'], { cwd, encoding: 'utf8' });
  t.equal(last.status, 0);
});
