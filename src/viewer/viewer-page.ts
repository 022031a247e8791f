// The HTML of the viewer page and of its refusal. The plan travels inside the page as a JSON data
// block (never executed, so the Content-Security-Policy needs no 'unsafe-inline'), and the only
// other requests are the script and the style sheet from this service.
import type { ViewerData } from './viewer-data.js';

export const ASSETS_PATH = '/viewer-assets';

/** Nothing but this service: no other host, no inline script or style, no framing, no referrer. */
export const VIEWER_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  // The token is in the address: it must not travel on to anywhere the page links to.
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that cannot end its script element early nor open a comment: every < is escaped. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function viewerPage(data: ViewerData): string {
  const { service_ref: serviceRef, reference } = data.load_plan;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Load plan ${escapeHtml(serviceRef)} (${escapeHtml(reference)})</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/viewer.css">
</head>
<body>
<header><h1>Load plan <span class="ref">${escapeHtml(serviceRef)}</span></h1>
<p class="sub">Reference ${escapeHtml(reference)} · ${escapeHtml(data.supplier)} → ${escapeHtml(data.consignee)}</p></header>
<main id="app"><p class="loading">Loading the 3D view…</p></main>
<noscript><p>The 3D load plan needs JavaScript.</p></noscript>
<script type="application/json" id="viewer-data">${jsonForScript(data)}</script>
<script type="module" src="${ASSETS_PATH}/viewer.js"></script>
</body>
</html>
`;
}

export function refusedPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link not valid</title></head>
<body><h1>Link not valid</h1><p>${escapeHtml(message)}</p></body></html>
`;
}
