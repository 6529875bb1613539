import { PRODUCT_NAME } from '../../shared/product.ts';
import type { Mark, Messages } from './en.ts';

const votre: Record<Mark, string> = { signature: 'votre signature', initials: 'vos initiales', stamp: 'votre cachet' };
const attempts = (n: number) => `${n} ${n <= 1 ? 'essai restant' : 'essais restants'}`;

/** Le français de la page de signature (vouvoiement). */
export const fr: Messages = {
  appName: PRODUCT_NAME,
  loading: 'Chargement…',
  opening: 'Ouverture de votre document…',
  skipToDocument: 'Aller au document',

  linkExpiredTitle: 'Ce lien ne fonctionne plus',
  linkExpiredText:
    'Le lien de signature a expiré, ou la tâche qu’il confiait a été transmise à une autre personne. Les liens ne peuvent pas être prolongés.',
  linkExpiredWhatToDo:
    'Demandez à l’expéditeur de renvoyer le document. Si vous avez transmis la tâche, la personne concernée a reçu son propre lien.',
  linkVoidedText:
    'L’expéditeur a annulé cette enveloppe : il n’y a plus rien à signer. Le motif vous a été envoyé par e-mail.',
  genericErrorTitle: 'Une erreur s’est produite',
  genericErrorText: 'Le document n’a pas pu être chargé. Vérifiez votre connexion et rechargez la page.',
  reload: 'Recharger',
  requestReference: (id: string) => `Référence pour l’assistance : ${id}`,

  from: (name: string) => `De la part de ${name}`,
  messageFromSender: 'Message de l’expéditeur',
  brandLogoAlt: (organization: string) => `Logo de ${organization}`,
  involvedHeading: 'Participants',
  involvedOrdered: 'Chacun intervient dans cet ordre.',
  involvedUnordered: 'Chacun peut intervenir en même temps.',
  you: 'vous',
  role: { SIGNER: 'Signe', APPROVER: 'Approuve', CC: 'Reçoit une copie' },
  recipientStatus: {
    PENDING: 'En attente de son tour',
    SENT: 'Invité',
    VIEWED: 'A ouvert le document',
    SIGNED: 'A signé',
    APPROVED: 'A approuvé',
    DECLINED: 'A refusé',
    SKIPPED: 'A reçu une copie',
    DELEGATED: 'A transmis la tâche',
  },

  consentHeading: 'Avant de commencer',
  consentIntro: 'Veuillez lire cette information. Elle est enregistrée avec votre signature.',
  consentAgree: 'J’accepte, continuer',
  consentDecline: 'Je n’accepte pas (refuser)',

  passwordHeading: 'Ce document est protégé',
  passwordIntro: 'L’expéditeur a protégé ce document par un mot de passe, qu’il a dû vous communiquer séparément.',
  passwordLabel: 'Mot de passe',
  passwordSubmit: 'Ouvrir le document',
  passwordWrong: 'Ce mot de passe est incorrect. Vérifiez-le et réessayez.',
  passwordLocked: 'Trop de mots de passe incorrects. Patientez un moment avant de réessayer.',

  otpHeading: 'Confirmez votre identité',
  otpIntro: (email: string) =>
    `L’expéditeur nous a demandé de vérifier votre identité. Nous allons envoyer un code à 6 chiffres à ${email}.`,
  otpSend: 'Recevoir un code par e-mail',
  otpSent: (time: string) => `Nous vous avons envoyé un code. Il est valable jusqu’à ${time}.`,
  otpLabel: 'Code reçu par e-mail',
  otpHint: '6 chiffres',
  otpVerify: 'Valider le code',
  otpResend: 'Envoyer un nouveau code',
  otpResendIn: (seconds: number) => `Vous pourrez demander un nouveau code dans ${seconds} s.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `Ce code est incorrect. ${attempts(attemptsLeft)}.`
      : 'Ce code n’est plus valable. Demandez-en un nouveau.',
  otpFormat: 'Saisissez les 6 chiffres reçus par e-mail.',
  otpTooSoon: (seconds: number) => `Veuillez patienter ${seconds} s avant de demander un nouveau code.`,
  otpVerified: 'Merci, votre identité est confirmée.',

  documentsHeading: 'Document',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (document ${index} sur ${total})` : name,
  pageOf: (page: number, total: number) => `Page ${page} sur ${total}`,
  zoomOut: 'Zoom arrière',
  zoomIn: 'Zoom avant',
  zoomFit: 'Ajuster à la largeur',
  zoomLevel: (percent: number) => `Zoom ${percent} %`,
  pageLoading: 'Chargement de la page…',
  pageFailed: 'Cette page ne peut pas être affichée.',

  fieldType: {
    SIGNATURE: 'Signature',
    INITIALS: 'Initiales',
    TEXT: 'Texte',
    TEXTAREA: 'Texte',
    NUMBER: 'Nombre',
    EMAIL: 'E-mail',
    DATE: 'Date',
    CHECKBOX: 'Case à cocher',
    DROPDOWN: 'Choix',
    NAME: 'Nom',
    NOTE: 'Remarque',
    IMAGE: 'Image',
    STAMP: 'Cachet',
    DIGITAL_SIGNATURE: 'Signature numérique',
  },
  required: 'obligatoire',
  optional: 'facultatif',
  filled: 'rempli',
  empty: 'vide',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'obligatoire' : 'facultatif'}, ${filled ? 'rempli' : 'vide'}`,
  progress: (done: number, total: number) =>
    `${done} champ${done > 1 ? 's' : ''} obligatoire${done > 1 ? 's' : ''} rempli${done > 1 ? 's' : ''} sur ${total}`,
  nextField: 'Champ suivant',
  previousField: 'Champ précédent',
  skipField: 'Passer ce champ',
  startFilling: 'Aller au premier champ',
  today: 'Aujourd’hui',
  reviewFields: 'Vérifier vos champs',
  allRequiredDone: 'Tous les champs obligatoires sont remplis.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (champ ${position} sur ${total})`,
  closeField: 'Fermer',
  noFieldsForYou: 'Vous n’avez rien à remplir.',
  saved: 'Enregistré',
  saving: 'Enregistrement…',
  savedLocally: 'Conservé sur cet appareil jusqu’à la fin',
  saveFailed:
    'Enregistrement impossible. Votre saisie est conservée sur cet appareil et sera enregistrée lorsque vous terminerez.',
  applyValue: 'Enregistrer et continuer',
  clearValue: 'Effacer',
  notePrefix: 'Remarque de l’expéditeur',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Choisir…',
  dateShownAs: (text: string) => `Affiché sur le document : ${text}`,
  invalidNumber: 'Saisissez un nombre, par exemple 42 ou 3.5 (avec un point, pas une virgule).',
  invalidEmail: 'Saisissez une adresse e-mail, par exemple nom@example.com.',
  invalidDate: 'Saisissez une date.',
  tooLong: (max: number) => `${max} caractères au maximum.`,
  requiredMissing: 'Ce champ est obligatoire.',
  imageChoose: 'Choisir une image',
  imageTooLarge: 'Cette image est trop grande. Utilisez une image de moins de 2 Mo et de 8000 pixels au plus de côté.',
  imageUnreadable: 'Ce fichier n’a pas pu être lu comme une image.',
  imagePreviewAlt: 'Image choisie',
  stampFromFile: 'Un cachet est une image du tampon de votre entreprise. Choisissez le fichier image.',

  signatureHow: 'Comment souhaitez-vous signer ?',
  signatureDraw: 'Dessiner',
  signatureType: 'Saisir',
  drawAreaLabel: (m: Mark) => `Zone de dessin pour ${votre[m]}. Dessinez à la souris, au stylet ou avec le doigt.`,
  drawHint: 'Dessinez dans le cadre. Pas de souris ni d’écran tactile ? Choisissez Saisir.',
  drawEmpty: 'Dessinez d’abord votre signature, ou choisissez Saisir.',
  typeLabel: (m: Mark) => `Saisissez ${votre[m]}`,
  typePreviewAlt: (m: Mark) =>
    m === 'initials'
      ? 'Aperçu de vos initiales saisies'
      : m === 'stamp'
        ? 'Aperçu de votre cachet saisi'
        : 'Aperçu de votre signature saisie',
  typeEmpty: 'Saisissez d’abord votre nom.',
  adoptSignature: (m: Mark) =>
    m === 'initials' ? 'Utiliser ces initiales' : m === 'stamp' ? 'Utiliser ce cachet' : 'Utiliser cette signature',
  signaturePreviewAlt: (m: Mark) => votre[m].replace(/^v/, 'V'),
  changeSignature: 'Modifier',
  signingPasswordMissing: 'Saisissez votre mot de passe de signature.',
  signingPasswordCreateLabel: 'Créer un mot de passe de signature',
  signingPasswordCreateHint: (min: number) =>
    `C’est votre première signature avec un certificat de signature personnel. Le mot de passe crée votre clé de signature et la protège : personne ne peut signer avec elle sans ce mot de passe, pas même le service. Utilisez au moins ${min} caractères et conservez-le en lieu sûr ; il vous sera demandé pour chaque signature ultérieure.`,
  signingPasswordConfirmLabel: 'Confirmer le mot de passe de signature',
  signingPasswordEnterLabel: 'Saisissez votre mot de passe de signature',
  signingPasswordEnterHint:
    'Le mot de passe choisi lors de votre première signature avec votre certificat. Il déverrouille votre clé de signature pour cette signature.',
  signingPasswordTooShort: (min: number) => `Utilisez au moins ${min} caractères.`,
  signingPasswordMismatch: 'Les deux mots de passe ne sont pas identiques.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'Le mot de passe de signature est incorrect.'
      : `Le mot de passe de signature est incorrect. ${attempts(attemptsLeft)}.`,
  signingPasswordLocked:
    'Trop de mots de passe de signature incorrects. Réessayez dans 15 minutes, ou créez une nouvelle clé de signature ci-dessous.',
  signingKeyNotCertifiable:
    'Votre adresse doit être confirmée avant qu’un certificat de signature puisse être établi à son nom. Ouvrez le lien de confirmation envoyé à la création de votre compte, ou signez depuis le lien de l’e-mail de demande de signature.',
  signingKeyForgot: 'Mot de passe de signature oublié ?',
  signingKeyResetIntro:
    'Nous vous envoyons un code par e-mail. Il vous permet de choisir un nouveau mot de passe de signature, qui crée une nouvelle clé et un nouveau certificat. Vos signatures précédentes restent valables.',
  signingKeyResetSend: 'Recevoir un code par e-mail',
  signingKeyResetSending: 'Envoi…',
  signingKeyResetSent: 'Nous vous avons envoyé un code. Il est valable 10 minutes.',
  signingKeyResetCode: 'Code reçu par e-mail',
  signingKeyResetPassword: 'Nouveau mot de passe de signature',
  signingKeyResetConfirm: 'Confirmer le nouveau mot de passe de signature',
  signingKeyResetSubmit: 'Créer une nouvelle clé de signature',
  signingKeyResetDone: 'Votre nouvelle clé de signature est prête. Saisissez son mot de passe ci-dessus pour signer.',
  signingKeyResetCodeInvalid: 'Saisissez les 6 chiffres reçus par e-mail.',
  signedWithCertificate: 'Signé avec votre certificat de signature personnel.',
  libraryHeading: (m: Mark) =>
    m === 'initials'
      ? 'Vos initiales enregistrées'
      : m === 'stamp'
        ? 'Vos cachets enregistrés'
        : 'Vos signatures enregistrées',
  libraryUse: (name: string) => `Utiliser « ${name} »`,
  libraryImageAlt: (name: string) => `Enregistré : ${name}`,
  librarySignIn: 'Vous avez un compte ? Connectez-vous pour utiliser vos signatures enregistrées',

  actionsRegion: 'Remplir et signer',
  finishHeading: 'Terminer',
  finishSign: 'Terminer et signer',
  finishApprove: 'Approuver',
  approveCommentLabel: 'Commentaire pour l’expéditeur (facultatif)',
  finishBlocked: (count: number) =>
    count === 1
      ? 'Remplissez d’abord encore 1 champ obligatoire.'
      : `Remplissez d’abord encore ${count} champs obligatoires.`,
  moreActions: 'Autres options',
  decline: 'Refuser',
  declineHeading: 'Refuser de signer',
  declineReasonLabel: 'Motif (l’expéditeur le lira)',
  declineConfirm: 'Refuser',
  declineReasonMissing: 'Indiquez à l’expéditeur pourquoi vous refusez.',
  delegate: 'Confier à quelqu’un d’autre',
  delegateHeading: 'Confier cette tâche à une autre personne',
  delegateIntro: 'Elle recevra son propre e-mail avec un lien, et votre lien cessera de fonctionner.',
  delegateName: 'Son nom',
  delegateEmail: 'Son adresse e-mail',
  delegateConfirm: 'Confier',
  delegateNameInvalid:
    'Saisissez son nom : 2 à 50 caractères, des lettres (un trait d’union ou une apostrophe entre deux lettres), une seule espace entre les mots.',
  delegateEmailInvalid: 'Saisissez son adresse e-mail.',
  cancel: 'Annuler',
  close: 'Fermer',

  doneSignedTitle: 'Merci, vous avez signé',
  doneApprovedTitle: 'Merci, vous avez approuvé',
  doneWaiting:
    'Les autres participants doivent encore intervenir. Vous recevrez le document finalisé par e-mail lorsque tout le monde aura terminé.',
  doneCompleted:
    'Tout le monde a terminé. Le document est en cours de scellement ; le téléchargement apparaîtra ici dans un instant, et vous le recevrez aussi par e-mail.',
  doneSealed: 'Tout le monde a terminé. Le document est scellé et prêt.',
  declinedTitle: 'Vous avez refusé',
  declinedText: 'L’expéditeur a été informé, avec votre motif. Plus personne ne peut signer ce document.',
  delegatedTitle: 'Tâche confiée',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) recevra un e-mail avec son propre lien. Votre lien ne fonctionne plus.`,
  voidTitle: 'Ce document a été annulé',
  voidText: 'Quelqu’un a refusé ou l’expéditeur l’a annulé. Plus rien ne peut être signé.',
  notYourTurnTitle: 'Ce n’est pas encore votre tour',
  notYourTurnText:
    'D’autres personnes interviennent avant vous. Nous vous préviendrons par e-mail quand ce sera votre tour ; d’ici là, vous pouvez lire le document.',
  ccTitle: 'Vous recevez une copie',
  ccText: 'Vous n’avez rien à faire. Vous pouvez lire le document ici.',
  alreadyFinished: 'Vous avez déjà terminé. Vous pouvez lire le document ici.',
  downloadsHeading: 'Téléchargement',
  downloadDocument: (name: string) => `Télécharger ${name} (PDF scellé)`,
  downloadCertificate: 'Télécharger le certificat de réalisation',
  downloadFailed: 'Le téléchargement a échoué. Réessayez dans un instant.',

  commentsHeading: 'Commentaires',
  commentsEmpty: 'Aucun commentaire pour l’instant.',
  commentLabel: 'Ajouter un commentaire',
  commentOnField: (label: string) => `À propos du champ « ${label} »`,
  commentAboutField: (label: string) => `à propos de « ${label} »`,
  commentSend: 'Publier le commentaire',
  commentEmpty: 'Écrivez d’abord un commentaire.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'Retour à votre document…',
  ssoTitle: 'Connexion',
  ssoHandedBack: 'Vous êtes connecté. Cette fenêtre se ferme d’elle-même ; si elle reste ouverte, fermez-la.',
  ssoReturnToApp: 'Connexion terminée. Revenez à l’application qui vous a demandé de vous connecter.',
  ssoFailed: (reason: string) => `La connexion n’a pas abouti (${reason}). Revenez à l’application et réessayez.`,
  cscNoSession: 'Cette page finalise une signature à distance. Revenez au document que vous signiez.',

  cscHeading: 'Signature à distance',
  cscIntro:
    'Votre service de signature signe avec votre propre certificat : vous confirmez la signature sur sa page, puis vous revenez ici.',
  cscLoading: 'Recherche de vos certificats auprès de votre service de signature…',
  cscCredentialLabel: 'Certificat',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'signature électronique simple',
    AES: 'signature électronique avancée',
    QES: 'signature électronique qualifiée',
  },
  cscSignButton: 'Signer avec votre service de signature à distance',
  cscRedirecting: 'Redirection vers votre service de signature…',
  cscNoCredentials:
    'Votre service de signature ne détient aucun certificat pour un type de signature accepté par ce document.',
  cscUnavailable: 'Votre service de signature est injoignable pour le moment. Réessayez dans un instant.',
  cscCompleting: 'Finalisation de votre signature à distance…',
  cscRefused: 'Votre service de signature n’a pas autorisé la signature. Rien n’a été signé ; vous pouvez réessayer.',
  cscFailed: (reason: string) =>
    `La signature à distance n’a pas pu être finalisée : ${reason} Rien n’a été signé ; vous pouvez réessayer.`,
  cscSigned: 'Votre signature à distance a été ajoutée au document.',

  notFoundTitle: 'Page introuvable',
  notFoundText: 'Ouvrez le lien de signature reçu par e-mail.',
};
