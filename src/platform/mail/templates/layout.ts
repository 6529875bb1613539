import { escapeHtml } from '../../html.ts';
import { type MailLanguage, mailText } from '../messages/index.ts';
/**
 * The one layout every mail is written in: the subject on one line, "Hello <name>," then the blocks, then
 * the same sign-off, as plain text and as HTML built from the same blocks. Mail helpers in the modules say
 * what a mail says; how it looks is decided here.
 */

/** An organization's look (APP_BRANDING); every part optional, the platform's look otherwise. */
export type MailBranding = { colour?: string | null; logoUrl?: string | null; senderName?: string | null };

/** A paragraph; a run of lines kept together (a list); a link to act on; a quoted message from a person. */
export type MailBlock =
  | string
  | { lines: string[] }
  | { label: string; url: string }
  | { quote: string; by: string }
  | null
  | false
  | undefined;

/**
 * `language` is the language the mail's texts were written in (messages/index.ts); the layout's own words (the
 * greeting, "Message from") follow it. Absent: English.
 */
export type MailTemplate = { subject: string; greeting: string; blocks: MailBlock[]; language?: MailLanguage };

/**
 * `template` is kept when the mail was rendered in the platform's look, so that the outbox can render it again
 * in the branding of the organization the mail is sent for (platform/mail/branding.ts); a mail rendered with
 * branding given here has none and is sent as it is.
 */
export type RenderedMail = { subject: string; text: string; html: string; template?: MailTemplate };

const PLATFORM_NAME = 'Signature Service';
const DEFAULT_COLOUR = '#1f4e79';

/** Line breaks never reach a mail header. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function renderMail(template: MailTemplate, branding?: MailBranding): RenderedMail {
  const rendered = renderIn(template, branding ?? {});
  return branding ? rendered : { ...rendered, template };
}

function renderIn(template: MailTemplate, branding: MailBranding): RenderedMail {
  const blocks = template.blocks.filter((b): b is Exclude<MailBlock, null | false | undefined> => Boolean(b));
  const signOff = oneLine(branding.senderName ?? '') || PLATFORM_NAME;
  const words = mailText(template.language).layout;
  const greeting = words.greeting({ name: template.greeting });
  const phrases: Phrases = {
    messageFrom: (by) => words.messageFrom({ by }),
    link: (label, url) => words.link({ label, url }),
  };
  const text = [greeting, ...blocks.map((block) => blockText(block, phrases)), `-- \n${signOff}`].join('\n\n');
  const colour = branding.colour && /^#[0-9a-fA-F]{3,8}$/.test(branding.colour) ? branding.colour : DEFAULT_COLOUR;
  const logo =
    branding.logoUrl && /^https?:\/\//.test(branding.logoUrl)
      ? `<p><img src="${escapeHtml(branding.logoUrl)}" alt="${escapeHtml(signOff)}" style="max-height:48px"></p>`
      : '';
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">',
    `<div style="max-width:600px;border-top:4px solid ${colour};padding-top:8px">`,
    logo,
    `<p>${escapeHtml(greeting)}</p>`,
    ...blocks.map((block) => blockHtml(block, colour, phrases.messageFrom)),
    `<p style="color:#666">${escapeHtml(signOff)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { subject: oneLine(template.subject), text, html };
}

/** The layout's own words around a block, in the mail's language. */
type Phrases = { messageFrom: (by: string) => string; link: (label: string, url: string) => string };

function blockText(block: Exclude<MailBlock, null | false | undefined>, phrases: Phrases): string {
  if (typeof block === 'string') return block;
  if ('lines' in block) return block.lines.join('\n');
  if ('url' in block) return phrases.link(block.label, block.url);
  return `${phrases.messageFrom(block.by)}\n${block.quote}`;
}

function blockHtml(
  block: Exclude<MailBlock, null | false | undefined>,
  colour: string,
  messageFrom: Phrases['messageFrom'],
): string {
  if (typeof block === 'string') return `<p>${paragraph(block)}</p>`;
  if ('lines' in block) return `<p>${block.lines.map(escapeHtml).join('<br>')}</p>`;
  if ('url' in block) {
    return `<p><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:8px 16px;background:${colour};color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(block.label)}</a></p>`;
  }
  return `<p>${escapeHtml(messageFrom(block.by))}</p><blockquote style="border-left:3px solid #ccc;margin:0;padding-left:12px">${paragraph(block.quote)}</blockquote>`;
}

function paragraph(text: string): string {
  return escapeHtml(text).replace(/\n/g, '<br>');
}
