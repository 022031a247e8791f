// Writes fonts/: the two weights the packing-instructions PDF uses (400 and 700) of each Noto family it
// falls back through, brotli-compressed, each family's licence beside them, and fonts/fonts.json with the
// SHA-256 of every font as it came in its package. The packages (made for Expo apps, nine weights each,
// far larger installed than the two weights used) are fetched with `npm pack` into a temporary directory and left there, so that no
// install of the service downloads them. Run it to change a family or a version: edit FAMILIES, run
// `node scripts/fonts/make-fonts.mjs`, commit fonts/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

// In fallback order (src/packing-instructions/unicode-fonts.ts reads this order from fonts.json).
const FAMILIES = [
  ['noto-sans', '0.4.2', 'NotoSans'],
  ['noto-sans-arabic', '0.4.3', 'NotoSansArabic'],
  ['noto-sans-hebrew', '0.4.1', 'NotoSansHebrew'],
  ['noto-sans-devanagari', '0.4.1', 'NotoSansDevanagari'],
  ['noto-sans-thai', '0.4.2', 'NotoSansThai'],
  ['noto-sans-jp', '0.4.3', 'NotoSansJP'],
  ['noto-sans-sc', '0.4.3', 'NotoSansSC'],
  ['noto-sans-kr', '0.4.3', 'NotoSansKR'],
];
const WEIGHTS = ['400Regular', '700Bold'];

const out = new URL('../../fonts/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'make-fonts-'));
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
try {
  const manifest = { source: 'npm packages @expo-google-fonts/<package>, files <weight>/<file>_<weight>.ttf', families: [] };
  for (const [pkg, version, file] of FAMILIES) {
    const tarball = execFileSync('npm', ['pack', `@expo-google-fonts/${pkg}@${version}`, '--silent', '--cache', join(work, 'cache')], { cwd: work, encoding: 'utf8' }).trim();
    const unpacked = join(work, pkg);
    execFileSync('mkdir', ['-p', unpacked]);
    execFileSync('tar', ['xzf', join(work, tarball), '-C', unpacked, '--strip-components=1']);
    rmSync(join(work, tarball));
    const entry = { package: `@expo-google-fonts/${pkg}`, version, file, licence: `${file}-LICENSE.txt`, weights: {} };
    for (const weight of WEIGHTS) {
      const ttf = readFileSync(join(unpacked, weight, `${file}_${weight}.ttf`));
      const packed = brotliCompressSync(ttf, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: ttf.length },
      });
      writeFileSync(join(out, `${file}_${weight}.ttf.br`), packed);
      entry.weights[weight] = { sha256: sha256(ttf), bytes: ttf.length, compressed: packed.length };
      console.log(`${file}_${weight}: ${ttf.length} bytes, ${packed.length} compressed`);
    }
    writeFileSync(join(out, entry.licence), readFileSync(join(unpacked, 'LICENSE_FONT')));
    rmSync(unpacked, { recursive: true });
    manifest.families.push(entry);
  }
  writeFileSync(join(out, 'fonts.json'), `${JSON.stringify(manifest, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
