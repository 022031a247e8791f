// Issue 15 point 3: the viewer in a real browser. Debian's chromium, driven by playwright-core, opens
// the share link of a planned order without any API key, and the test reads what a person would see:
// the canvas's pixels in the plan's colours, the step slider moving the drawn count, a placement's
// details after a click on it, a pallet layer by layer, and the refusals of tampered and expired links.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ACME_KEY, acmeOrder } from '../support/seed.js';
import { eventually, removeDataDir, startTestService } from '../support/service.js';
import { signShareToken } from '../../src/viewer/share-token.js';
import { SHARE_SECRET_FILE } from '../../src/viewer/share-secret.js';
import type { ViewerData } from '../../src/viewer/viewer-data.js';

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  const reason = `no ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium; .ci/run does)`;
  // In CI a missing browser is a broken set-up, not a reason to pass.
  if (process.env.CI) t.fail(reason);
  else t.test('the viewer in a real browser', { skip: reason }, async () => {});
} else {
  await browserTests();
}

async function browserTests(): Promise<void> {
  const service = await startTestService({ key: ACME_KEY });
  // WebGL without a GPU: SwiftShader, which Chromium only uses for WebGL when told it may.
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  t.teardown(async () => {
    await browser.close();
    await service.stop();
    removeDataDir(service.dataDir);
  });

  const created = await service.request('POST', '/api/v1/orders/submit-order/', {
    body: acmeOrder({
      reference: 'VIEW-1',
      order_items: [
        { item: 'SKU-1001', quantity: 200 },
        { item: 'SKU-1002', quantity: 60 },
      ],
      loose_boxes: [{ name: 'Spare parts', length: 60, width: 40, height: 40, weight: 15, count: 12 }],
    }),
  });
  await eventually(async () => (await service.request('GET', '/api/v1/orders/load-plan/?order=VIEW-1')).status === 200, 60_000);
  const viewerUrl: string = (await service.request('GET', '/api/v1/orders/load-plan/?order=VIEW-1')).body.viewer_url;
  const serviceRef: string = created.body.service_ref;

  interface Rgb {
    r: number;
    g: number;
    b: number;
  }
  const rgb = (hex: string): Rgb => ({
    r: parseInt(hex.slice(1, 3), 16),
    g: parseInt(hex.slice(3, 5), 16),
    b: parseInt(hex.slice(5, 7), 16),
  });

  interface CanvasPixels {
    width: number;
    height: number;
    rgba: Buffer;
    scale: number;
    left: number;
    top: number;
  }

  /** The canvas's pixels as drawn, and where it sits on the page. */
  async function canvasPixels(page: Page): Promise<CanvasPixels> {
    const read = await page.evaluate(() => {
      // Runs in the page; typed loosely because this program is compiled without the DOM's types.
      const doc = (globalThis as any).document;
      const canvas = doc.getElementById('scene');
      const copy = doc.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const context = copy.getContext('2d');
      context.drawImage(canvas, 0, 0);
      const { data } = context.getImageData(0, 0, copy.width, copy.height);
      let binary = '';
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      const rect = canvas.getBoundingClientRect();
      return {
        width: copy.width as number,
        height: copy.height as number,
        base64: (globalThis as any).btoa(binary) as string,
        scale: canvas.clientWidth / copy.width,
        left: rect.left as number,
        top: rect.top as number,
      };
    });
    return { ...read, rgba: Buffer.from(read.base64, 'base64') };
  }

  const hsv = ({ r, g, b }: Rgb) => {
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const d = max - min;
    let h = 0;
    if (d > 0) h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return { h: (h * 60 + 360) % 360, s: max === 0 ? 0 : d / max, v: max };
  };

  /**
   * Per colour, the canvas pixels of that hue (shading makes faces lighter or darker, never another
   * hue), and for the first colour given, a point well inside a patch of it, in CSS pixels of the page.
   */
  async function pixelsByColour(
    page: Page,
    colours: string[],
  ): Promise<{ counts: number[]; background: number; total: number; inside: { x: number; y: number } | null }> {
    const { width, height, rgba, scale, left, top } = await canvasPixels(page);
    const wanted = colours.map((hex) => hsv(rgb(hex)));
    const match = (x: number, y: number, target: ReturnType<typeof hsv>) => {
      const i = (y * width + x) * 4;
      const p = hsv({ r: rgba[i]!, g: rgba[i + 1]!, b: rgba[i + 2]! });
      const dh = Math.min(Math.abs(p.h - target.h), 360 - Math.abs(p.h - target.h));
      return dh <= 10 && p.s >= target.s * 0.6 && p.s <= Math.min(1, target.s * 1.4) && p.v > 40;
    };
    const counts = wanted.map(() => 0);
    let background = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (Math.abs(rgba[i]! - 0xf4) <= 2 && Math.abs(rgba[i + 1]! - 0xf5) <= 2 && Math.abs(rgba[i + 2]! - 0xf7) <= 2) background++;
        wanted.forEach((target, k) => {
          if (match(x, y, target)) counts[k]!++;
        });
      }
    }
    const first = wanted[0]!;
    const patchAt = (x: number, y: number) => {
      for (let dy = -4; dy <= 4; dy += 2) for (let dx = -4; dx <= 4; dx += 2) if (!match(x + dx, y + dy, first)) return false;
      return true;
    };
    let inside: { x: number; y: number } | null = null;
    for (let y = 4; y < height - 4 && !inside; y += 2) {
      for (let x = 4; x < width - 4; x += 2) {
        if (patchAt(x, y)) {
          inside = { x: left + x * scale, y: top + y * scale };
          break;
        }
      }
    }
    return { counts, background, total: width * height, inside };
  }

  t.test('the share link opens the 3D plan without an API key, from this service alone', async (t) => {
    t.notMatch(viewerUrl, ACME_KEY, 'the API key is not in the link');
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(viewerUrl);
    t.equal(response?.status(), 200);
    t.match(response?.headers()['content-security-policy'], /default-src 'none'; script-src 'self'/);
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    t.same(errors, [], 'no script errors');
    t.ok(
      requests.every((url) => url.startsWith(`${service.url}/`) || url.startsWith('data:')),
      `every request goes to the service: ${requests.join(' ')}`,
    );

    const data = JSON.parse((await page.textContent('#viewer-data'))!) as ViewerData;
    const steps = data.load_plan.containers.reduce((sum, c) => sum + c.placements.length, 0);
    t.equal(await page.getAttribute('#scene', 'data-drawn'), String(steps), 'every placement drawn at the last step');
    // Grey (mixed pallets) has no hue to tell it from shading; every coloured cargo must show.
    const colours = [...new Set(Object.values(data.colours.placements))].filter((hex) => {
      const { r, g, b } = rgb(hex);
      return Math.max(r, g, b) - Math.min(r, g, b) > 40;
    });
    t.ok(colours.length >= 3, `SKU-1001, SKU-1002 and the loose boxes have colours: ${colours.join(' ')}`);
    const full = await pixelsByColour(page, colours);
    t.ok(
      full.background > full.total * 0.2 && full.background < full.total * 0.95,
      `background and scene share the canvas (${full.background} of ${full.total} pixels background)`,
    );
    colours.forEach((colour, k) => t.ok(full.counts[k]! > 100, `${full.counts[k]} pixels in ${colour}`));

    // The step slider, moved with the keyboard as a person would: Home empties, each arrow adds one.
    await page.focus('#step');
    await page.keyboard.press('Home');
    t.equal(await page.getAttribute('#scene', 'data-drawn'), '0');
    const empty = await pixelsByColour(page, colours);
    t.ok(
      empty.counts.every((count) => count < 20),
      `nothing drawn at step 0 (${empty.counts.join(', ')})`,
    );
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    t.equal(await page.getAttribute('#scene', 'data-drawn'), '3');
    t.match(await page.textContent('#step-label'), `3 of ${steps}`);
    const three = await pixelsByColour(page, colours);
    t.ok(three.counts.reduce((a, b) => a + b, 0) > 100, 'three placements drawn');
    t.ok(three.counts.reduce((a, b) => a + b, 0) < full.counts.reduce((a, b) => a + b, 0), 'fewer coloured pixels than the whole load');
    await page.keyboard.press('End');
    t.equal(await page.getAttribute('#scene', 'data-drawn'), String(steps));

    // Click where the loose boxes' colour shows: the details name a loose box and its size and weight.
    const boxColour = data.colours.placements['Spare parts #1']!;
    const box = await pixelsByColour(page, [boxColour]);
    t.ok(box.inside, "a patch of the loose boxes' colour to click on");
    if (box.inside) {
      await page.mouse.click(box.inside.x, box.inside.y);
      await page.waitForSelector('#details[data-ref]');
      const details = (await page.textContent('#details'))!;
      t.match(details, /Spare parts #\d+/);
      t.match(details, /Loose box/);
      t.match(details, /600 × 400 × 400 mm|400 × 600 × 400 mm|400 × 400 × 600 mm|600 × 400 × 400|400 × 600 × 400/);
      t.match(details, /15 kg/);
    }

    // Click a pallet of SKU-1001: its details, then its layers one at a time.
    const pallet = await pixelsByColour(page, [data.colours.skus['SKU-1001']!]);
    t.ok(pallet.inside);
    if (pallet.inside) {
      await page.mouse.click(pallet.inside.x, pallet.inside.y);
      await page.waitForSelector('#details[data-ref^=AP]');
      t.match(await page.textContent('#details'), /SKU-1001/);
      await page.waitForSelector('#pallet-view:not([hidden])');
      await page.focus('#layer');
      await page.keyboard.press('Home');
      t.match(await page.textContent('#layer-label'), /^1 of \d+: \d+ units, from 0 mm above the deck/);
    }
    await page.keyboard.press('End');
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: process.env.VIEWER_SCREENSHOT ?? join(service.dataDir, 'viewer.png'), fullPage: true });
    t.pass(`screenshot at ${process.env.VIEWER_SCREENSHOT ?? join(service.dataDir, 'viewer.png')}`);

    // A phone held upright: nothing wider than the screen, the scene still drawn.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    t.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 390, 'no sideways scrolling at 390 px');
    const phone = await pixelsByColour(page, colours);
    t.ok(
      phone.counts.every((count) => count > 20),
      `every colour still drawn at phone width (${phone.counts.join(', ')})`,
    );
    await page.close();
  });

  t.test('a tampered, expired or borrowed token is refused with 403 and shows nothing of the order', async (t) => {
    const secret = Buffer.from(readFileSync(join(service.dataDir, SHARE_SECRET_FILE), 'utf8').trim(), 'hex');
    const url = new URL(viewerUrl);
    const token = url.searchParams.get('token')!;
    const other = await service.request('POST', '/api/v1/orders/submit-order/', { body: acmeOrder({ reference: 'VIEW-OTHER' }) });
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const cases: [string, string][] = [
      ['tampered', `${url.pathname}?token=${tampered}`],
      ['expired', `${url.pathname}?token=${signShareToken(secret, serviceRef, Math.floor(Date.now() / 1000) - 60)}`],
      ['expiry moved on', `${url.pathname}?token=${Number(token.split('.')[0]) + 86_400}.${token.split('.')[1]}`],
      ["another order's", `/plans/${other.body.service_ref}?token=${token}`],
      ['missing', url.pathname],
    ];
    const page = await browser.newPage();
    for (const [name, path] of cases) {
      const response = await page.goto(service.url + path);
      t.equal(response?.status(), 403, `${name} token: 403`);
      const text = (await page.textContent('body'))!;
      t.match(text, /not valid or has expired/);
      t.notMatch(text, /VIEW-1|SKU-1001|Acme/, `${name} token: nothing of the order shows`);
      t.equal(await page.$('#viewer-data'), null);
    }
    await page.close();
  });

  t.test('a container booked by count and not needed shows as empty, not as a load within the limits', async (t) => {
    await service.request('POST', '/api/v1/orders/submit-order/', {
      body: acmeOrder({
        reference: 'VIEW-BOOKED',
        order_items: [{ item: 'SKU-1001', quantity: 100 }],
        order_containers: [{ code: '20ft', count: 2 }],
      }),
    });
    await eventually(async () => (await service.request('GET', '/api/v1/orders/load-plan/?order=VIEW-BOOKED')).status === 200, 60_000);
    const url: string = (await service.request('GET', '/api/v1/orders/load-plan/?order=VIEW-BOOKED')).body.viewer_url;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    t.same(errors, [], 'no script errors');
    const options = await page.$$eval('option', (os) => os.map((o) => o.textContent));
    t.ok(options.includes('Container 2: 20ft, booked, not needed (empty)'), `the container list says so: ${options.join(' | ')}`);
    const cog = (await page.textContent('#cog')) ?? '';
    t.match(cog, /Container 2: 20ft, empty \(booked, not needed\)/);
    t.notMatch(cog, /Container 2: 20ft, within the limits/);
    await page.close();
  });
}
