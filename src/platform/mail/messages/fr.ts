import type { MailMessages } from './en.ts';
import { languageTools } from './format.ts';

/** French, formal (vous); a no-break space before : and inside « », as French typography sets them. */
const { locale, categories, number, plural } = languageTools('fr-FR', ['one', 'many', 'other']);
const q = (text: string) => `«\u00a0${text}\u00a0»`;
const minutes = (count: number) =>
  `${number(count)} ${plural(count, { one: 'minute', many: 'minutes', other: 'minutes' })}`;

export const fr: MailMessages = {
  locale,
  pluralCategories: categories,

  layout: {
    greeting: (p) => `Bonjour ${p.name},`,
    messageFrom: (p) => `Message de ${p.by}\u00a0:`,
    link: (p) => `${p.label}\u00a0: ${p.url}`,
  },

  theSender: 'L’expéditeur',
  openDocument: 'Ouvrir le document',
  ignoreIfNotAsked: 'Si vous n’avez pas demandé ce code, ignorez simplement ce message.',

  commence: {
    sent: (p) =>
      `${p.sender} vous a envoyé ${q(p.document)} ${p.approve ? 'pour examen et approbation' : 'pour signature'}.`,
    delegated: (p) =>
      `${p.delegatedBy} vous demande ${p.approve ? 'd’examiner et d’approuver' : 'de signer'} ${q(p.document)} à sa place. Le document a été envoyé par ${p.sender}.`,
    personalLink: (p) =>
      `Ce lien vous est personnel\u00a0: merci de ne pas le transférer. Il est valable jusqu’au ${p.date}.`,
  },

  copy: {
    subject: (p) => `Copie\u00a0: ${p.title}`,
    sent: (p) =>
      `${p.sender} a envoyé ${q(p.document)} pour signature et vous a mis en copie. Vous n’avez rien à faire.`,
    viewDocument: 'Voir le document',
    linkValid: (p) => `Ce lien est valable jusqu’au ${p.date}.`,
  },

  otp: {
    subject: (p) => `Votre code de vérification pour ${q(p.title)}`,
    code: (p) => `Votre code de vérification est ${p.code}`,
    enterIt: (p) =>
      `Saisissez-le pour confirmer votre identité avant ${p.approve ? 'd’examiner et d’approuver' : 'de signer'} ${q(p.document)}. Il est valable ${minutes(p.minutes)}.`,
  },

  declined: {
    subject: (p) => `Refusé\u00a0: ${p.title}`,
    body: (p) => `${p.name} (${p.email}) a refusé ${q(p.document)}. L’enveloppe est donc annulée.`,
    reasonGiven: 'Motif indiqué\u00a0:',
  },

  voided: {
    subject: (p) => `Annulé\u00a0: ${p.title}`,
    byDecline: (p) => `${p.name} a refusé ${q(p.document)}.`,
    byOwner: (p) => `${p.name} a annulé ${q(p.document)}\u00a0: ${p.reason}`,
    nothingMore: 'L’enveloppe a été annulée. Vous n’avez plus rien à faire.',
  },

  reminder: {
    subject: (p) => `Rappel\u00a0: ${p.title}`,
    waiting: (p) => `${p.sender} attend toujours que vous ${p.approve ? 'approuviez' : 'signiez'} ${q(p.document)}.`,
    alreadyDone: 'Si c’est déjà fait, merci de ne pas tenir compte de ce message.',
  },

  completed: {
    subject: (p) => `Terminé\u00a0: ${p.title}`,
    finished: (p) =>
      `Tous les participants ont terminé ${q(p.document)}. ${plural(p.count, {
        one: 'Le document signé est scellé',
        many: 'Les documents signés sont scellés',
        other: 'Les documents signés sont scellés',
      })} avec le cachet électronique de la plateforme\u00a0:`,
    attached: (p) =>
      plural(p.count, {
        one: 'Le fichier PDF scellé est joint à ce message.',
        many: 'Les fichiers PDF scellés sont joints à ce message.',
        other: 'Les fichiers PDF scellés sont joints à ce message.',
      }),
    tooLarge: (p) => `Les fichiers scellés dépassent ${number(p.megabytes)} Mo et ne sont donc pas joints.`,
    download: 'Les télécharger',
  },

  sealFailed: {
    subject: (p) => `Échec du scellement\u00a0: ${p.title}`,
    body: (p) =>
      `Tous les participants ont terminé ${q(p.document)}, mais le service n’a pas pu sceller le document signé malgré plusieurs tentatives.`,
    reason: (p) => `Motif\u00a0: ${p.reason}`,
    kept: 'Les signatures et la piste d’audit sont conservées. Veuillez contacter votre administrateur.',
  },

  signingKeyReset: {
    subject: 'Votre code pour une nouvelle clé de signature',
    code: (p) => `Votre code pour une nouvelle clé de signature est ${p.code}`,
    lines: (p) => [
      `Saisissez-le sur la page de signature avec un nouveau mot de passe de signature. Il est valable ${minutes(p.minutes)}.`,
      'Vos signatures précédentes restent valables\u00a0; l’ancien mot de passe de signature ne fonctionnera plus.',
      'Si vous n’avez pas demandé ce code, ignorez ce message\u00a0: votre clé reste inchangée.',
    ],
  },
};
