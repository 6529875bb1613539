import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/** Spanish, formal (usted). */
const { locale, categories, number, plural } = languageTools('es-ES', ['one', 'many', 'other']);
const q = (text: string) => `«${text}»`;
const minutes = (count: number) =>
  `${number(count)} ${plural(count, { one: 'minuto', many: 'minutos', other: 'minutos' })}`;

export const es: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: (p) => `Hola, ${p.name}:`,
    messageFrom: (p) => `Mensaje de ${p.by}:`,
    link: (p) => `${p.label}: ${p.url}`,
  },

  theSender: 'El remitente',
  openDocument: 'Abrir el documento',
  ignoreIfNotAsked: 'Si no ha solicitado este código, ignore este mensaje.',

  commence: {
    sent: (p) => `${p.sender} le ha enviado ${q(p.document)} para que lo ${p.approve ? 'revise y apruebe' : 'firme'}.`,
    delegated: (p) =>
      `${p.delegatedBy} le ha pedido que ${p.approve ? 'revise y apruebe' : 'firme'} ${q(p.document)} en su lugar. El documento lo envió ${p.sender}.`,
    personalLink: (p) => `Este enlace es personal: no lo reenvíe. Puede utilizarlo hasta el ${p.date}.`,
  },

  copy: {
    subject: (p) => `Copia: ${p.title}`,
    sent: (p) =>
      `${p.sender} ha enviado ${q(p.document)} para su firma y le ha incluido en copia. No tiene que hacer nada.`,
    viewDocument: 'Ver el documento',
    linkValid: (p) => `Puede utilizar este enlace hasta el ${p.date}.`,
  },

  otp: {
    subject: (p) => `Su código de verificación para ${q(p.title)}`,
    code: (p) => `Su código de verificación es ${p.code}`,
    enterIt: (p) =>
      `Introdúzcalo para confirmar su identidad antes de ${p.approve ? 'revisar y aprobar' : 'firmar'} ${q(p.document)}. Es válido durante ${minutes(p.minutes)}.`,
  },

  declined: {
    subject: (p) => `Rechazado: ${p.title}`,
    body: (p) => `${p.name} (${p.email}) ha rechazado ${q(p.document)}. El sobre queda anulado.`,
    reasonGiven: 'Motivo indicado:',
  },

  voided: {
    subject: (p) => `Anulado: ${p.title}`,
    byDecline: (p) => `${p.name} ha rechazado ${q(p.document)}.`,
    byOwner: (p) => `${p.name} ha anulado ${q(p.document)}: ${p.reason}`,
    nothingMore: 'El sobre ha sido anulado. No tiene que hacer nada más.',
  },

  reminder: {
    subject: (p) => `Recordatorio: ${p.title}`,
    waiting: (p) => `${p.sender} sigue esperando a que ${p.approve ? 'apruebe' : 'firme'} ${q(p.document)}.`,
    alreadyDone: 'Si ya lo ha hecho, ignore este mensaje.',
  },

  completed: {
    subject: (p) => `Completado: ${p.title}`,
    finished: (p) =>
      `Todos los participantes han completado ${q(p.document)}. ${plural(p.count, {
        one: 'El documento firmado está sellado',
        many: 'Los documentos firmados están sellados',
        other: 'Los documentos firmados están sellados',
      })} con el sello electrónico de la plataforma:`,
    attached: (p) =>
      plural(p.count, {
        one: 'Se adjunta a este mensaje el archivo PDF sellado.',
        many: 'Se adjuntan a este mensaje los archivos PDF sellados.',
        other: 'Se adjuntan a este mensaje los archivos PDF sellados.',
      }),
    tooLarge: (p) => `Los archivos sellados superan los ${number(p.megabytes)} MB, por lo que no se adjuntan.`,
    download: 'Descargar los archivos',
  },

  sealFailed: {
    subject: (p) => `Error de sellado: ${p.title}`,
    body: (p) =>
      `Todos los participantes han completado ${q(p.document)}, pero el servicio no ha podido sellar el documento firmado tras varios intentos.`,
    reason: (p) => `Motivo: ${p.reason}`,
    kept: 'Las firmas y el registro de auditoría se conservan. Póngase en contacto con su administrador.',
  },

  signingKeyReset: {
    subject: 'Su código para una nueva clave de firma',
    code: (p) => `Su código para una nueva clave de firma es ${p.code}`,
    lines: (p) => [
      `Introdúzcalo en la página de firma junto con una nueva contraseña de firma. Es válido durante ${minutes(p.minutes)}.`,
      'Sus firmas anteriores siguen siendo válidas; la contraseña de firma anterior deja de funcionar.',
      'Si no ha solicitado este código, ignore este mensaje: su clave no cambia.',
    ],
  },
};
