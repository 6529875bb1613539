import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const kinds = { SIGNATURE: 'Assinaturas', INITIALS: 'Iniciais', STAMP: 'Carimbos' };
const kindOne = { SIGNATURE: 'Assinatura', INITIALS: 'Iniciais', STAMP: 'Carimbo' };
type Kind = keyof typeof kindOne;
/** The screens pass a kind's name (`kinds[kind]` or `kindOne[kind]`); agreement needs the kind itself. */
const kindOf = (names: Record<Kind, string>, name: string): Kind =>
  (Object.keys(names) as Kind[]).find((kind) => names[kind] === name) ?? 'SIGNATURE';
const none: Record<Kind, string> = {
  SIGNATURE: 'Ainda não há assinaturas guardadas.',
  INITIALS: 'Ainda não há iniciais guardadas.',
  STAMP: 'Ainda não há carimbos guardados.',
};
const sua: Record<Kind, string> = {
  SIGNATURE: 'a sua assinatura',
  INITIALS: 'as suas iniciais',
  STAMP: 'o seu carimbo',
};
const saved: Record<Kind, string> = { SIGNATURE: 'guardada', INITIALS: 'guardadas', STAMP: 'guardado' };

/** O português (europeu) do perfil: tratamento formal, sem "tu". */
export const pt: Messages = {
  profileText: {
    title: 'Perfil',
    loading: 'A carregar…',
    sectionsNav: 'Secções do perfil',
    sectionTitles: { account: 'Conta', security: 'Início de sessão e segurança', signatures: 'Assinaturas' },
    unknownSection: 'O seu perfil não tem essa secção.',
    saving: 'A guardar…',
    cancel: 'Cancelar',
    delete: 'Eliminar',

    accountTitle: 'A sua conta',
    name: 'Nome',
    email: 'E-mail',
    accountReadOnly: 'O nome e o e-mail são os da sua conta; o serviço ainda não permite alterá-los aqui.',
    passwordNote: 'O serviço ainda não permite alterar a palavra-passe.',
    languageTitle: 'Idioma',
    locale: 'Idioma preferido',
    localeHint:
      'Os e-mails que os destinatários recebem sobre os envelopes que envia são escritos neste idioma (se os e-mails não existirem neste idioma, como no caso de Svenska, aplica-se a definição do proprietário da sua organização ou, na falta desta, o inglês). As próprias páginas, tanto a área de trabalho como as páginas de assinatura e de início de sessão, seguem o idioma escolhido no menu Idioma.',
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
    saveLocale: 'Guardar o idioma',
    localeSaved: (name: string) => `Idioma preferido guardado: ${name}.`,
    notificationsTitle: 'Notificações por e-mail',
    notificationsLegend: 'Enviar-me um e-mail quando',
    notificationsHint:
      'Os pedidos de assinatura, os códigos de utilização única e os e-mails de segurança e de convite são sempre enviados.',
    notifications: {
      workflowCompleted: 'um envelope que enviei for concluído',
      workflowDeclined: 'um destinatário recusar um envelope que enviei',
      workflowDelegated: 'um destinatário passar a sua tarefa a outra pessoa',
      workflowVoided: 'um envelope em que participo for cancelado',
      commentAdded: 'alguém comentar um envelope em que participo',
      documentOpened: 'um destinatário abrir um envelope que enviei',
    },
    saveNotifications: 'Guardar as notificações',
    notificationsSaved: 'Definições de notificação guardadas.',

    twoFactorTitle: 'Início de sessão em dois fatores',
    twoFactorOn:
      'Ativo: ao iniciar sessão com a palavra-passe, é-lhe também pedido um código da sua aplicação de autenticação.',
    twoFactorOff: 'Inativo: basta a palavra-passe para iniciar sessão.',
    twoFactorStart: 'Configurar o início de sessão em dois fatores',
    twoFactorStarting: 'A preparar…',
    twoFactorScan:
      'Leia este código QR com a sua aplicação de autenticação (por exemplo, Google Authenticator, Microsoft Authenticator ou 1Password).',
    qrAlt: 'Código QR para a sua aplicação de autenticação',
    manualKey: 'Ou introduza esta chave na aplicação',
    code: 'Código da aplicação',
    codeHint: '6 dígitos; um novo a cada 30 segundos.',
    codeRule: 'Introduza os 6 dígitos que a aplicação mostra.',
    twoFactorConfirm: 'Ativar o início de sessão em dois fatores',
    twoFactorCancel: 'Cancelar a configuração',
    twoFactorEnabled:
      'O início de sessão em dois fatores está ativo. Da próxima vez que iniciar sessão, tenha a aplicação de autenticação à mão.',
    twoFactorDisableTitle: 'Desativar o início de sessão em dois fatores',
    twoFactorDisableText: 'Introduza a palavra-passe e um código atual da aplicação.',
    password: 'Palavra-passe',
    passwordRequired: 'Introduza a sua palavra-passe.',
    twoFactorDisable: 'Desativar o início de sessão em dois fatores',
    twoFactorDisabled: 'O início de sessão em dois fatores está inativo.',

    passkeysTitle: 'Chaves de acesso',
    passkeysIntro:
      'Uma chave de acesso permite-lhe iniciar sessão com o bloqueio de ecrã deste dispositivo ou com uma chave de segurança, sem palavra-passe.',
    passkeysUnsupported: 'Este navegador não consegue criar chaves de acesso.',
    passkeyName: 'Nome da nova chave de acesso',
    passkeyNameHint: 'Por exemplo, «Portátil do trabalho», para distinguir as suas chaves de acesso.',
    addPasskey: 'Adicionar uma chave de acesso',
    addingPasskey: 'A aguardar o seu dispositivo…',
    passkeyAdded: (name: string) => `Chave de acesso «${name}» adicionada.`,
    passkeyCancelled: 'A chave de acesso não foi criada: o pedido foi cancelado ou expirou.',
    passkeyFailed: 'Este dispositivo não conseguiu criar uma chave de acesso.',
    passkeysCaption: (n: number) => plural('pt-PT', n, { one: '1 chave de acesso', other: `${n} chaves de acesso` }),
    noPasskeys: 'Ainda não há chaves de acesso.',
    added: 'Adicionada',
    lastUsed: 'Última utilização',
    never: 'Nunca',
    synced: 'Sincronizada',
    syncedYes: 'Sim, com cópia de segurança',
    syncedNo: 'Não, só neste dispositivo',
    actions: 'Ações',
    deletePasskeyOf: (name: string) => `Eliminar a chave de acesso ${name}`,
    deletePasskeyTitle: (name: string) => `Eliminar a chave de acesso «${name}»?`,
    deletePasskeyText:
      'Deixa de poder iniciar sessão com ela. A chave de acesso pode continuar no dispositivo; remova-a também aí.',
    passkeyDeleted: (name: string) => `Chave de acesso «${name}» eliminada.`,

    libraryTitle: 'Biblioteca de assinaturas',
    libraryIntro:
      'Assinaturas, iniciais e carimbos guardados que pode aplicar quando assina. O predefinido de cada tipo é sugerido primeiro.',
    kinds,
    kindOne,
    noEntries: (kind: string) => none[kindOf(kinds, kind)],
    defaultBadge: 'Predefinido',
    entryAlt: (kind: string, name: string) => `${kind} «${name}»`,
    captureModes: { DRAW: 'Desenhado', TYPE: 'Escrito', UPLOAD: 'Carregado' },
    makeDefault: 'Definir como predefinido',
    makeDefaultOf: (name: string) => `Definir «${name}» como predefinido`,
    deleteEntryOf: (name: string) => `Eliminar «${name}»`,
    deleteEntryTitle: (name: string) => `Eliminar «${name}»?`,
    deleteEntryText: 'Os documentos que já assinou com este elemento mantêm-se inalterados.',
    entryDeleted: (name: string) => `«${name}» eliminado.`,
    defaultSet: (name: string) => `«${name}» é agora o predefinido.`,
    addTitle: 'Adicionar à biblioteca',
    kind: 'Tipo',
    entryName: 'Nome',
    entryNameHint: 'O nome que lhe dá. Se o escrever, é também o texto que aparece.',
    entryNameRequired: 'Dê-lhe um nome.',
    typedTooLong: 'Uma assinatura escrita tem, no máximo, 50 caracteres.',
    how: 'Como',
    draw: 'Desenhar',
    type: 'Escrever',
    upload: 'Carregar uma imagem',
    drawLabel: (kind: string) =>
      `Área de desenho para ${sua[kindOf(kindOne, kind)]}: desenhe com o rato, uma caneta ou o dedo`,
    drawHint: 'Desenhe com o rato, uma caneta ou o dedo. Não consegue desenhar? Escolha Escrever.',
    clear: 'Limpar o desenho',
    drawEmpty: 'Desenhe primeiro alguma coisa, ou escolha Escrever.',
    font: 'Tipo de letra',
    fonts: {
      DANCING_SCRIPT: 'Manuscrito (Dancing Script)',
      LIBERATION_SANS: 'Simples (Liberation Sans)',
      LIBERATION_SANS_ITALIC: 'Itálico (Liberation Sans)',
    },
    typedPreview: 'Pré-visualização',
    image: 'Ficheiro de imagem',
    imageHint: 'PNG ou JPEG, no máximo 1 MB.',
    imageRequired: 'Escolha uma imagem.',
    imageType: 'Escolha uma imagem PNG ou JPEG.',
    imageSize: 'A imagem tem mais de 1 MB.',
    imageUnreadable: 'Não foi possível ler esta imagem.',
    imagePreviewAlt: 'A imagem escolhida',
    uploadStampOnly: 'Só é possível carregar uma imagem para carimbos.',
    save: 'Guardar na biblioteca',
    entryAdded: (kind: string, name: string) => `${kind} «${name}» ${saved[kindOf(kindOne, kind)]}.`,
  },
};
