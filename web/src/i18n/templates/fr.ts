import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const count = (n: number, one: string, other: string) =>
  plural('fr', n, { one: `${n} ${one}`, other: `${n} ${other}` });
const decimal = (n: number) => n.toLocaleString('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An envelope's status in the list of envelopes to copy (enveloppe is feminine). */
const status: Record<string, string> = {
  DRAFT: 'brouillon',
  SENT: 'envoyée',
  COMPLETED: 'finalisée',
  VOID: 'annulée',
  APPROVED: 'approuvée',
};
/** A field without a label is named by its type. */
const fieldType: Record<string, string> = FIELD_TYPE_NAMES.fr;

/** Le français des modèles (vouvoiement). */
export const fr: Messages = {
  templatesText: {
    title: 'Modèles',
    loading: 'Chargement…',
    saving: 'Enregistrement…',
    actions: 'Actions',
    name: 'Nom',
    description: 'Description',
    updated: 'Modifié le',
    delete: 'Supprimer',
    rename: 'Renommer',
    search: 'Rechercher',
    searchTemplates: 'Rechercher des modèles par nom',

    foldersTitle: 'Dossiers',
    foldersNav: 'Dossiers de modèles',
    allTemplates: 'Tous les modèles',
    rootFolder: 'Hors dossier',
    newFolder: 'Nouveau dossier',
    newSubfolder: 'Nouveau sous-dossier',
    folderName: 'Nom du dossier',
    folderNameRule: 'De 1 à 50 caractères.',
    createFolder: 'Créer le dossier',
    newFolderTitle: (parent: string | null) => (parent ? `Nouveau dossier dans ${parent}` : 'Nouveau dossier'),
    folderCreated: (name: string) => `Dossier ${name} créé.`,
    renameFolderTitle: (name: string) => `Renommer le dossier ${name}`,
    folderRenamed: (name: string) => `Dossier renommé en ${name}.`,
    deleteFolderTitle: (name: string) => `Supprimer le dossier ${name} ?`,
    deleteFolderText:
      'Seul un dossier vide peut être supprimé : déplacez ou supprimez d’abord ses modèles et ses sous-dossiers.',
    folderDeleted: (name: string) => `Dossier ${name} supprimé.`,
    folderActions: (name: string) => `Dossier ${name}`,
    renameFolderOf: (name: string) => `Renommer le dossier ${name}`,
    deleteFolderOf: (name: string) => `Supprimer le dossier ${name}`,
    accessOf: (name: string) => `Accès au dossier ${name}`,
    access: 'Accès',
    accessTitle: (name: string) => `Qui voit le dossier ${name}`,
    accessText:
      'Par défaut, toute personne disposant de l’autorisation Modèles voit un dossier. Vous pouvez le réserver à certains rôles : le propriétaire le voit toujours, et la restriction s’applique aussi à ses sous-dossiers.',
    restrict: 'Seuls les membres ayant les rôles choisis ci-dessous voient ce dossier',
    rolesLegend: 'Rôles qui le voient',
    noRolesYet: 'Votre organisation n’a encore aucun rôle actif.',
    saveAccess: 'Enregistrer l’accès',
    accessSaved: (name: string) => `Accès à ${name} enregistré.`,

    newTemplate: 'Nouveau modèle',
    newFromEnvelope: 'Nouveau modèle à partir d’une enveloppe',
    templatesCaption: (n: number, where: string) => `${count(n, 'modèle', 'modèles')} (${where})`,
    templatesPages: 'Pages de modèles',
    noTemplates: 'Aucun modèle ici pour l’instant. Créez-en un à partir d’une enveloppe que vous avez préparée.',
    noTemplatesMatch: 'Aucun modèle ne correspond à cette recherche.',
    placeholders: 'Destinataires à renseigner',
    noPlaceholders: 'Aucun',
    use: 'Utiliser',
    useOf: (name: string) => `Utiliser ${name} : créer un brouillon d’enveloppe`,
    send: 'Envoyer',
    sendOf: (name: string) => `Envoyer ${name}`,
    analytics: 'Statistiques',
    analyticsOf: (name: string) => `Statistiques de ${name}`,
    renameOf: (name: string) => `Renommer ${name}`,
    move: 'Déplacer',
    moveOf: (name: string) => `Déplacer ${name}`,
    copy: 'Copier',
    copyOf: (name: string) => `Copier ${name}`,
    deleteOf: (name: string) => `Supprimer ${name}`,
    more: 'Plus',
    moreFor: (name: string) => ` d’actions pour ${name}`,
    using: 'Création de l’enveloppe…',
    useFailed: 'Impossible de créer l’enveloppe à partir de ce modèle.',
    renameTitle: (name: string) => `Renommer ${name}`,
    templateName: 'Nom du modèle',
    templateNameRule: 'De 1 à 50 caractères ; unique dans son dossier.',
    renamed: (name: string) => `Modèle renommé en ${name}.`,
    moveTitle: (name: string) => `Déplacer ${name}`,
    moveTo: 'Dossier',
    moved: (name: string, folder: string) => `${name} déplacé vers ${folder}.`,
    copied: (name: string) => `Copie créée : ${name}.`,
    deleteTitle: (name: string) => `Supprimer le modèle ${name} ?`,
    deleteText: 'Les enveloppes déjà créées à partir de ce modèle restent inchangées.',
    deleted: (name: string) => `Modèle ${name} supprimé.`,

    createTitle: 'Nouveau modèle à partir d’une enveloppe',
    createText:
      'Le modèle reprend les documents, les destinataires et les champs de l’enveloppe. Les modifications ultérieures de l’enveloppe ne changent pas le modèle.',
    source: 'Enveloppe à copier',
    sourceSearch: 'Rechercher une enveloppe par nom',
    sourceHint:
      'Vos propres enveloppes comportant des documents et des destinataires (hors signature par vous seul et Power Survey).',
    sourceNone: 'Choisissez une enveloppe',
    sourceRequired: 'Choisissez l’enveloppe à copier.',
    noSources:
      'Aucune de vos enveloppes ne peut encore devenir un modèle : préparez-en d’abord une avec des documents et des destinataires.',
    sourceOption: (name: string, state: string, recipients: number) =>
      `${name} (${status[state] ?? state.toLowerCase()}, ${count(recipients, 'destinataire', 'destinataires')})`,
    slotsLegend: 'Destinataires : lesquels sont à renseigner ?',
    slotsHint:
      'Donnez un libellé à un destinataire (par exemple « Client ») pour en faire un destinataire à renseigner : la personne qui envoie le modèle saisit son nom et son adresse e-mail. Sans libellé, le destinataire reste tel quel.',
    slotLabel: (order: number, name: string, role: string) => `Libellé du destinataire ${order} : ${name} (${role})`,
    folder: 'Dossier',
    reminders: 'Relancer les destinataires qui n’ont pas encore agi',
    reminderDays: 'Tous les combien de jours',
    reminderDaysRule: 'De 1 à 30 jours.',
    nameRequired: 'Donnez un nom au modèle.',
    create: 'Créer le modèle',
    created: (name: string) => `Modèle ${name} créé.`,

    roles: { SIGNER: 'signataire', APPROVER: 'approbateur', CC: 'reçoit une copie' },

    dispatchTitle: (name: string) => `Envoyer ${name}`,
    backToTemplates: 'Retour aux modèles',
    dispatchIntro:
      'Indiquez qui reçoit l’enveloppe. Les destinataires à renseigner doivent être complétés ; les autres peuvent être modifiés ou conservés.',
    recipientLegend: (order: number, role: string, label: string | null) =>
      `Destinataire ${order} : ${role}${label ? ` (${label})` : ''}`,
    placeholder: 'À renseigner',
    recipientName: 'Nom',
    recipientNameRule: 'De 3 à 50 caractères : lettres, traits d’union ou apostrophes entre les lettres, et espaces.',
    recipientEmail: 'E-mail',
    nameRuleError:
      'Saisissez un nom de 3 à 50 caractères : lettres, traits d’union ou apostrophes entre les lettres, et espaces.',
    emailRuleError: 'Saisissez une adresse e-mail valide.',
    sendNow: 'Envoyer maintenant',
    sending: 'Envoi…',
    makeDraft: 'Créer d’abord un brouillon à modifier',
    sendingDisabled: 'Remplissez d’abord les champs signalés.',

    analyticsTitle: (name: string) => `Statistiques de ${name}`,
    completionTitle: 'Finalisation',
    completionRate: (rate: string) => `${rate} des enveloppes créées à partir de ce modèle sont finalisées.`,
    completionSummary: (total: number) =>
      plural('fr', total, {
        one: `${total} enveloppe créée à partir de ce modèle.`,
        other: `${total} enveloppes créées à partir de ce modèle.`,
      }),
    countLabels: {
      completed: 'Finalisées',
      inProgress: 'En cours',
      draft: 'Brouillons',
      void: 'Annulées',
      other: 'Autres',
    },
    completionChart: 'Enveloppes par statut',
    timeTitle: 'Délai de signature',
    timeSummary: (n: number, avg: string, median: string, p90: string) =>
      `Sur ${count(n, 'enveloppe finalisée', 'enveloppes finalisées')} : moyenne ${avg}, médiane ${median}, 90 % en moins de ${p90}.`,
    timeNone: 'Aucune enveloppe créée à partir de ce modèle n’est encore finalisée.',
    timeChart: 'Enveloppes finalisées selon le délai entre l’envoi et la finalisation',
    buckets: {
      under1h: 'Moins d’une heure',
      under1d: '1 à 24 heures',
      under3d: '1 à 3 jours',
      under7d: '3 à 7 jours',
      over7d: '7 jours ou plus',
    },
    hours: (h: number) =>
      h < 1 ? `${Math.round(h * 60)} min` : h < 48 ? `${decimal(h)} h` : `${decimal(h / 24)} jours`,
    dropOffTitle: 'Abandon par champ',
    dropOffSummary: (sessions: number, since: string) =>
      `${count(sessions, 'session de signature', 'sessions de signature')} depuis le ${since}. La part des signataires qui ont atteint un champ mais l’ont laissé vide.`,
    dropOffNone: 'Aucune session de signature pour l’instant.',
    dropOffChart: 'Taux d’abandon par champ',
    lowSample: 'moins de 20 sessions : pas encore significatif',
    fieldLabel: (label: string | null, type: string, page: number) =>
      `${label || fieldType[type] || type} (page ${page})`,
    numbered: (label: string, n: number) => label.replace(/ \(page/, ` ${n} (page`),
    showTable: 'Afficher les chiffres sous forme de tableau',
    status: 'Statut',
    envelopes: 'Enveloppes',
    share: 'Part',
    time: 'Délai de finalisation',
    field: 'Champ',
    reached: 'Atteint',
    filled: 'Rempli',
    dropOff: 'Abandon',
    recoveries: 'Revenus pour remplir',
    percent: (value: number) => `${Math.round(value * 100)} %`,
    chartValue: (label: string, value: string) => `${label} : ${value}`,
  },
};
