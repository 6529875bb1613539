import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const kinds = { SIGNATURE: 'Signatures', INITIALS: 'Initiales', STAMP: 'Cachets' };
const kindOne = { SIGNATURE: 'Signature', INITIALS: 'Initiales', STAMP: 'Cachet' };
type Kind = keyof typeof kindOne;
/** The screens pass a kind's name (`kinds[kind]` or `kindOne[kind]`); agreement needs the kind itself. */
const kindOf = (names: Record<Kind, string>, name: string): Kind =>
  (Object.keys(names) as Kind[]).find((kind) => names[kind] === name) ?? 'SIGNATURE';
const none: Record<Kind, string> = {
  SIGNATURE: 'Pas encore de signature enregistrée.',
  INITIALS: 'Pas encore d’initiales enregistrées.',
  STAMP: 'Pas encore de cachet enregistré.',
};
const votre: Record<Kind, string> = { SIGNATURE: 'votre signature', INITIALS: 'vos initiales', STAMP: 'votre cachet' };
const saved: Record<Kind, string> = { SIGNATURE: 'enregistrée', INITIALS: 'enregistrées', STAMP: 'enregistré' };

/** Le français du profil (vouvoiement). */
export const fr: Messages = {
  profileText: {
    title: 'Profil',
    loading: 'Chargement…',
    sectionsNav: 'Sections du profil',
    sectionTitles: { account: 'Compte', security: 'Connexion et sécurité', signatures: 'Signatures' },
    unknownSection: 'Cette section n’existe pas dans votre profil.',
    saving: 'Enregistrement…',
    cancel: 'Annuler',
    delete: 'Supprimer',

    accountTitle: 'Votre compte',
    name: 'Nom',
    email: 'E-mail',
    accountReadOnly:
      'Votre nom et votre adresse e-mail sont ceux de votre compte ; le service ne permet pas encore de les modifier ici.',
    passwordNote: 'Le service ne permet pas encore de changer de mot de passe.',
    languageTitle: 'Langue',
    locale: 'Langue préférée',
    localeHint:
      'Les e-mails que reçoivent les destinataires des enveloppes que vous envoyez sont rédigés dans cette langue (si les e-mails n’existent pas dans cette langue, comme pour Svenska, c’est le réglage du propriétaire de votre organisation qui s’applique, sinon l’anglais). Les pages elles-mêmes, l’espace de travail comme les pages de signature et de connexion, suivent la langue choisie dans le menu Langue.',
    locales: {
      en: 'English',
      'en-GB': 'English (United Kingdom)',
      de: 'Deutsch',
      fr: 'Français',
      es: 'Español',
      it: 'Italiano',
      nl: 'Nederlands',
      'pt-BR': 'Português (Brasil)',
      pl: 'Polski',
      sv: 'Svenska',
    },
    saveLocale: 'Enregistrer la langue',
    localeSaved: (name: string) => `Langue préférée enregistrée : ${name}.`,
    notificationsTitle: 'Notifications par e-mail',
    notificationsLegend: 'M’envoyer un e-mail quand',
    notificationsHint:
      'Les demandes de signature, les codes à usage unique et les e-mails de sécurité et d’invitation sont toujours envoyés.',
    notifications: {
      workflowCompleted: 'une enveloppe que j’ai envoyée est finalisée',
      workflowDeclined: 'un destinataire refuse une enveloppe que j’ai envoyée',
      workflowDelegated: 'un destinataire confie sa tâche à une autre personne',
      workflowVoided: 'une enveloppe à laquelle je participe est annulée',
      commentAdded: 'quelqu’un commente une enveloppe à laquelle je participe',
      documentOpened: 'un destinataire ouvre une enveloppe que j’ai envoyée',
    },
    saveNotifications: 'Enregistrer les notifications',
    notificationsSaved: 'Paramètres de notification enregistrés.',

    twoFactorTitle: 'Connexion à deux facteurs',
    twoFactorOn:
      'Activée : la connexion avec votre mot de passe demande aussi un code de votre application d’authentification.',
    twoFactorOff: 'Désactivée : votre mot de passe suffit pour vous connecter.',
    twoFactorStart: 'Configurer la connexion à deux facteurs',
    twoFactorStarting: 'Préparation…',
    twoFactorScan:
      'Scannez ce code QR avec votre application d’authentification (par exemple Google Authenticator, Microsoft Authenticator, 1Password).',
    qrAlt: 'Code QR pour votre application d’authentification',
    manualKey: 'Ou saisissez cette clé dans l’application',
    code: 'Code de l’application',
    codeHint: '6 chiffres ; un nouveau toutes les 30 secondes.',
    codeRule: 'Saisissez les 6 chiffres affichés par l’application.',
    twoFactorConfirm: 'Activer la connexion à deux facteurs',
    twoFactorCancel: 'Annuler la configuration',
    twoFactorEnabled:
      'La connexion à deux facteurs est activée. À votre prochaine connexion, gardez votre application d’authentification à portée de main.',
    twoFactorDisableTitle: 'Désactiver la connexion à deux facteurs',
    twoFactorDisableText: 'Saisissez votre mot de passe et un code actuel de l’application.',
    password: 'Mot de passe',
    passwordRequired: 'Saisissez votre mot de passe.',
    twoFactorDisable: 'Désactiver la connexion à deux facteurs',
    twoFactorDisabled: 'La connexion à deux facteurs est désactivée.',

    passkeysTitle: 'Clés d’accès',
    passkeysIntro:
      'Une clé d’accès vous connecte avec le verrouillage d’écran de cet appareil ou une clé de sécurité, sans mot de passe.',
    passkeysUnsupported: 'Ce navigateur ne peut pas créer de clés d’accès.',
    passkeyName: 'Nom de la nouvelle clé d’accès',
    passkeyNameHint: 'Par exemple « Portable du bureau », pour distinguer vos clés d’accès.',
    addPasskey: 'Ajouter une clé d’accès',
    addingPasskey: 'En attente de votre appareil…',
    passkeyAdded: (name: string) => `Clé d’accès « ${name} » ajoutée.`,
    passkeyCancelled: 'La clé d’accès n’a pas été créée : la demande a été annulée ou a expiré.',
    passkeyFailed: 'Cet appareil n’a pas pu créer de clé d’accès.',
    passkeysCaption: (n: number) => plural('fr', n, { one: `${n} clé d’accès`, other: `${n} clés d’accès` }),
    noPasskeys: 'Aucune clé d’accès pour l’instant.',
    added: 'Ajoutée le',
    lastUsed: 'Dernière utilisation',
    never: 'Jamais',
    synced: 'Synchronisée',
    syncedYes: 'Oui, sauvegardée',
    syncedNo: 'Non, sur cet appareil uniquement',
    actions: 'Actions',
    deletePasskeyOf: (name: string) => `Supprimer la clé d’accès ${name}`,
    deletePasskeyTitle: (name: string) => `Supprimer la clé d’accès « ${name} » ?`,
    deletePasskeyText:
      'Elle ne pourra plus vous connecter. La clé d’accès peut rester sur l’appareil ; supprimez-la aussi là-bas.',
    passkeyDeleted: (name: string) => `Clé d’accès « ${name} » supprimée.`,

    libraryTitle: 'Bibliothèque de signatures',
    libraryIntro:
      'Signatures, initiales et cachets enregistrés, que vous pouvez apposer lorsque vous signez. L’élément par défaut de chaque type est proposé en premier.',
    kinds,
    kindOne,
    noEntries: (kind: string) => none[kindOf(kinds, kind)],
    defaultBadge: 'Par défaut',
    entryAlt: (kind: string, name: string) => `${kind} « ${name} »`,
    captureModes: { DRAW: 'Dessiné', TYPE: 'Saisi', UPLOAD: 'Importé' },
    makeDefault: 'Définir par défaut',
    makeDefaultOf: (name: string) => `Définir « ${name} » par défaut`,
    deleteEntryOf: (name: string) => `Supprimer « ${name} »`,
    deleteEntryTitle: (name: string) => `Supprimer « ${name} » ?`,
    deleteEntryText: 'Les documents que vous avez déjà signés avec cet élément restent inchangés.',
    entryDeleted: (name: string) => `« ${name} » supprimé.`,
    defaultSet: (name: string) => `« ${name} » est maintenant l’élément par défaut.`,
    addTitle: 'Ajouter à la bibliothèque',
    kind: 'Type',
    entryName: 'Nom',
    entryNameHint: 'Le nom que vous lui donnez. Si vous le saisissez au clavier, c’est aussi le texte écrit.',
    entryNameRequired: 'Donnez-lui un nom.',
    typedTooLong: 'Une signature saisie comporte au maximum 50 caractères.',
    how: 'Comment',
    draw: 'Dessiner',
    type: 'Saisir',
    upload: 'Importer une image',
    drawLabel: (kind: string) =>
      `Zone de dessin pour ${votre[kindOf(kindOne, kind)]} : dessinez à la souris, au stylet ou avec le doigt`,
    drawHint: 'Dessinez à la souris, au stylet ou avec le doigt. Impossible de dessiner ? Choisissez Saisir.',
    clear: 'Effacer le dessin',
    drawEmpty: 'Dessinez d’abord quelque chose, ou choisissez Saisir.',
    font: 'Police',
    fonts: {
      DANCING_SCRIPT: 'Manuscrite (Dancing Script)',
      LIBERATION_SANS: 'Simple (Liberation Sans)',
      LIBERATION_SANS_ITALIC: 'Italique (Liberation Sans)',
    },
    typedPreview: 'Aperçu',
    image: 'Fichier image',
    imageHint: 'PNG ou JPEG, 1 Mo maximum.',
    imageRequired: 'Choisissez une image.',
    imageType: 'Choisissez une image PNG ou JPEG.',
    imageSize: 'L’image dépasse 1 Mo.',
    imageUnreadable: 'Impossible de lire cette image.',
    imagePreviewAlt: 'L’image choisie',
    uploadStampOnly: 'L’importation d’une image est réservée aux cachets.',
    save: 'Enregistrer dans la bibliothèque',
    entryAdded: (kind: string, name: string) => `${kind} « ${name} » ${saved[kindOf(kindOne, kind)]}.`,
  },
};
