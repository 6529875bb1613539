import { createContext, useContext } from 'react';

/** The sender organization's look (GET /workflow/v1/{id}/branding); null members keep the platform's look. */
export type SenderBranding = { primaryColor: string | null; senderName: string | null; logoUrl: string | null };

export const BrandingContext = createContext<SenderBranding | null>(null);

export function useSenderBranding(): SenderBranding | null {
  return useContext(BrandingContext);
}

/** WCAG 2 relative luminance of an sRGB colour. */
function luminance([r, g, b]: number[]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/**
 * The organization's colour made dark enough for white text on it and for it as text on white (contrast at
 * least 5:1; WCAG AA asks 4.5:1): a light brand colour is darkened, keeping its hue, rather than making the page
 * unreadable. Null for anything that is not `#RRGGBB`.
 */
export function accessibleBrandColour(hex: string | null): string | null {
  if (!hex || !/^#[0-9a-fA-F]{6}$/.test(hex)) return null;
  let rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  // Contrast with white is (1 + 0.05) / (L + 0.05): L <= 0.15 gives 5.25:1, a margin for the slightly translucent
  // text of the bar (4.5:1 needs L <= 0.183).
  for (let step = 0; step < 40 && luminance(rgb) > 0.15; step++) rgb = rgb.map((c) => Math.floor(c * 0.92));
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
