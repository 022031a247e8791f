// Preloaded (--import) into a service process by a test: names on stderr, once each, every package the
// process resolves a module of, so that the test can tell which ones a start loaded.
import { registerHooks } from 'node:module';

const seen = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)?.[1];
    if (name !== undefined && !seen.has(name)) {
      seen.add(name);
      process.stderr.write(`package loaded: ${name}\n`);
    }
    return resolved;
  },
});
