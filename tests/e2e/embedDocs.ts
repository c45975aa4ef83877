// A docs page of one's own for the embed specs: served at an address of the site's own host, as
// a docs site on the same machine would be (Chromium blocks a public page framing a loopback one).
import type { Page } from '@playwright/test';

/** Serve `body` as the docs page and open it; `head` goes in its head (styles, a color-scheme). */
export async function docsPage(
  page: Page,
  baseURL: string | undefined,
  body: string,
  head = '',
): Promise<void> {
  const url = new URL('/docs-page-under-test.html', baseURL).toString();
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Docs</title><meta name="viewport" content="width=device-width, initial-scale=1">${head}</head><body style="margin:0">${body}</body></html>`,
    }),
  );
  await page.goto(url);
}

/** The address of the built site, for the docs page's script and iframe tags. */
export const siteOf = (baseURL: string | undefined) => new URL('/', baseURL).toString();
