import { describe, expect, it } from 'vitest';
import { renderMail } from '../../src/platform/mail/templates/layout.ts';

describe('the mail layout', () => {
  const template = {
    subject: 'Completed:\r\nBcc: victim@example.com  <Lease>',
    greeting: 'Ada <script>',
    blocks: [
      'First "paragraph" & more',
      null,
      { lines: ['- one.pdf', '- two.pdf'] },
      { label: 'Open the document', url: 'https://sign.example/sign/abc?x=1&y="2"' },
      { quote: 'Two copies,\nplease', by: 'Olivia' },
    ],
  };

  it('writes one subject line and the same greeting, blocks and sign-off in text and HTML, escaped in HTML', () => {
    const mail = renderMail(template);
    expect(mail.subject).toBe('Completed: Bcc: victim@example.com <Lease>');
    expect(mail.text).toBe(
      [
        'Hello Ada <script>,',
        'First "paragraph" & more',
        '- one.pdf\n- two.pdf',
        'Open the document: https://sign.example/sign/abc?x=1&y="2"',
        'Message from Olivia:\nTwo copies,\nplease',
        '-- \nSignature Service',
      ].join('\n\n'),
    );
    expect(mail.html).toContain('<p>Hello Ada &lt;script&gt;,</p>');
    expect(mail.html).toContain('First &quot;paragraph&quot; &amp; more');
    expect(mail.html).toContain('href="https://sign.example/sign/abc?x=1&amp;y=&quot;2&quot;"');
    expect(mail.html).toContain('Two copies,<br>please');
    expect(mail.html).not.toContain('<script>');
  });

  it("takes an organization's colour, logo and sender name, and ignores a colour or logo that is not one", () => {
    const branded = renderMail(template, {
      colour: '#AA3300',
      logoUrl: 'https://acme.example/logo.png',
      senderName: 'ACME Contracts',
    });
    expect(branded.text.endsWith('-- \nACME Contracts')).toBe(true);
    expect(branded.html).toContain('border-top:4px solid #AA3300');
    expect(branded.html).toContain('<img src="https://acme.example/logo.png" alt="ACME Contracts"');

    const hostile = renderMail(template, {
      colour: 'red;background:url(https://evil.example)',
      logoUrl: 'javascript:alert(1)',
    });
    expect(hostile.html).not.toContain('evil.example');
    expect(hostile.html).not.toContain('<img');
    expect(hostile.html).toContain('border-top:4px solid #1f4e79');
  });
});
