// Absolute viewer links for the load-plan JSON, the PDF and the e-mail, and their check.
import { signShareToken, verifyShareToken } from './share-token.js';

export interface ShareLinks {
  /** A link to the order's 3D load plan, valid for the configured number of days from now. */
  viewerUrl(serviceRef: string): string;
  verify(serviceRef: string, token: unknown): boolean;
}

export interface ShareLinksOptions {
  secret: Buffer;
  /** Where people reach the service, without a trailing slash: http://127.0.0.1:8000. */
  publicUrl: () => string;
  validDays: number;
  now?: () => number;
}

export function viewerPath(serviceRef: string): string {
  return `/plans/${encodeURIComponent(serviceRef)}`;
}

export function shareLinks({ secret, publicUrl, validDays, now = Date.now }: ShareLinksOptions): ShareLinks {
  return {
    viewerUrl(serviceRef) {
      const expiresAt = Math.floor(now() / 1000) + validDays * 86_400;
      return `${publicUrl()}${viewerPath(serviceRef)}?token=${signShareToken(secret, serviceRef, expiresAt)}`;
    },
    verify(serviceRef, token) {
      return verifyShareToken(secret, serviceRef, token, now());
    },
  };
}
