import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/**
 * European Portuguese, as the signing page writes it, in the formal register of business mail (the third person,
 * "enviou-lhe", never "tu").
 */
const { locale, categories, number, plural } = languageTools('pt-PT', ['one', 'many', 'other']);
const q = (text: string) => `“${text}”`;
const minutes = (count: number) =>
  `${number(count)} ${plural(count, { one: 'minuto', many: 'minutos', other: 'minutos' })}`;

export const pt: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: (p) => `Olá, ${p.name},`,
    messageFrom: (p) => `Mensagem de ${p.by}:`,
    link: (p) => `${p.label}: ${p.url}`,
  },

  theSender: 'O remetente',
  openDocument: 'Abrir o documento',
  ignoreIfNotAsked: 'Se não pediu este código, ignore esta mensagem.',

  commence: {
    sent: (p) => `${p.sender} enviou-lhe ${q(p.document)} para ${p.approve ? 'rever e aprovar' : 'assinar'}.`,
    delegated: (p) =>
      `${p.delegatedBy} delegou-lhe ${p.approve ? 'a revisão e a aprovação' : 'a assinatura'} de ${q(p.document)}. O documento foi enviado por ${p.sender}.`,
    personalLink: (p) => `Esta ligação é pessoal: não a reencaminhe. Pode ser utilizada até ${p.date}.`,
  },

  copy: {
    subject: (p) => `Cópia: ${p.title}`,
    sent: (p) =>
      `${p.sender} enviou ${q(p.document)} para assinatura; recebe esta mensagem em cópia. Não precisa de fazer nada.`,
    viewDocument: 'Ver o documento',
    linkValid: (p) => `Esta ligação pode ser utilizada até ${p.date}.`,
  },

  otp: {
    subject: (p) => `O seu código de verificação para ${q(p.title)}`,
    code: (p) => `O seu código de verificação é ${p.code}`,
    enterIt: (p) =>
      `Introduza-o para confirmar a sua identidade antes de ${p.approve ? 'rever e aprovar' : 'assinar'} ${q(p.document)}. O código é válido durante ${minutes(p.minutes)}.`,
  },

  declined: {
    subject: (p) => `Recusado: ${p.title}`,
    body: (p) => `${p.name} (${p.email}) recusou ${q(p.document)}. Com isso, o envelope foi anulado.`,
    reasonGiven: 'Motivo indicado:',
  },

  voided: {
    subject: (p) => `Anulado: ${p.title}`,
    byDecline: (p) => `${p.name} recusou ${q(p.document)}.`,
    byOwner: (p) => `${p.name} anulou ${q(p.document)}: ${p.reason}`,
    nothingMore: 'O envelope foi anulado. Não precisa de fazer mais nada.',
  },

  reminder: {
    subject: (p) => `Lembrete: ${p.title}`,
    waiting: (p) => `${p.sender} ainda aguarda que ${p.approve ? 'aprove' : 'assine'} ${q(p.document)}.`,
    alreadyDone: 'Se já o fez, ignore esta mensagem.',
  },

  completed: {
    subject: (p) => `Concluído: ${p.title}`,
    finished: (p) =>
      `Todos os participantes concluíram ${q(p.document)}. ${plural(p.count, {
        one: 'O documento assinado foi selado',
        many: 'Os documentos assinados foram selados',
        other: 'Os documentos assinados foram selados',
      })} com o selo eletrônico da plataforma:`,
    attached: (p) =>
      plural(p.count, {
        one: 'O ficheiro PDF selado segue em anexo a este e-mail.',
        many: 'Os ficheiros PDF selados seguem em anexo a este e-mail.',
        other: 'Os ficheiros PDF selados seguem em anexo a este e-mail.',
      }),
    tooLarge: (p) => `Os ficheiros selados têm mais de ${number(p.megabytes)} MB e, por isso, não foram anexados.`,
    download: 'Transferir os ficheiros',
  },

  sealFailed: {
    subject: (p) => `Falha na selagem: ${p.title}`,
    body: (p) =>
      `Todos os participantes concluíram ${q(p.document)}, mas o serviço não conseguiu selar o documento assinado depois de várias tentativas.`,
    reason: (p) => `Motivo: ${p.reason}`,
    kept: 'As assinaturas e o registo de auditoria foram preservados. Contacte o seu administrador.',
  },

  signingKeyReset: {
    subject: 'O seu código para uma nova chave de assinatura',
    code: (p) => `O seu código para uma nova chave de assinatura é ${p.code}`,
    lines: (p) => [
      `Introduza-o na página de assinatura juntamente com uma nova palavra-passe de assinatura. O código é válido durante ${minutes(p.minutes)}.`,
      'As suas assinaturas anteriores continuam válidas; a palavra-passe de assinatura antiga deixa de funcionar.',
      'Se não pediu este código, ignore esta mensagem: a sua chave continua a mesma.',
    ],
  },
};
