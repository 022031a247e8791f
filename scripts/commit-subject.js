// Commit subjects of 72 characters at most: a subject says what changed; why, and what was measured,
// go in the body. As git's commit-msg hook (scripts/git-hooks/commit-msg, installed with
// `git config core.hooksPath scripts/git-hooks`): `node scripts/commit-subject.js <message file>` refuses
// the commit when its subject is longer, saying by how much. `--range A..B` checks the subjects of those
// commits instead (before a push, or in CI) and names each one that is too long.
// The subject is the message's first line that is not empty and not a comment (git's `#` lines, which
// it strips); the subjects git writes itself (Merge ..., Revert "...", fixup! ..., squash! ...) are let
// through, since they repeat another subject.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const MAX_SUBJECT = 72;
const WRITTEN_BY_GIT = /^(Merge |Revert "|fixup! |squash! |amend! )/;

/** The subject of a commit message as git keeps it, or undefined for an empty message. */
export function subjectOf(message) {
  return message
    .split('\n')
    .find((line) => line.trim() !== '' && !line.startsWith('#'))
    ?.trimEnd();
}

/** Why this subject is refused, or undefined when it may stand. */
export function subjectProblem(subject) {
  if (subject === undefined || WRITTEN_BY_GIT.test(subject)) return undefined;
  const length = [...subject].length;
  if (length <= MAX_SUBJECT) return undefined;
  return `the subject is ${length} characters, ${length - MAX_SUBJECT} over ${MAX_SUBJECT}: say what changed in the subject, and why and the figures in the body`;
}

function main(args) {
  if (args[0] === '--range' && args[1]) {
    const log = execFileSync('git', ['log', '--format=%h %s', args[1]], { encoding: 'utf8' });
    const long = log
      .split('\n')
      .filter(Boolean)
      .map((line) => ({ hash: line.slice(0, line.indexOf(' ')), subject: line.slice(line.indexOf(' ') + 1) }))
      .map((c) => ({ ...c, problem: subjectProblem(c.subject) }))
      .filter((c) => c.problem);
    for (const c of long) console.error(`${c.hash} ${c.subject}\n  ${c.problem}`);
    console.log(`commit subjects in ${args[1]}: ${long.length} over ${MAX_SUBJECT} characters`);
    return long.length === 0 ? 0 : 1;
  }
  if (args.length !== 1) {
    console.error('usage: node scripts/commit-subject.js <commit message file> | --range A..B');
    return 2;
  }
  const subject = subjectOf(readFileSync(args[0], 'utf8'));
  const problem = subjectProblem(subject);
  if (!problem) return 0;
  console.error(`commit refused: ${problem}\n  ${subject}`);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
