import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const kinds = { SIGNATURE: 'Firmas', INITIALS: 'Iniciales', STAMP: 'Sellos' };
const kindOne = { SIGNATURE: 'Firma', INITIALS: 'Iniciales', STAMP: 'Sello' };
type Kind = keyof typeof kindOne;
/** The screens pass a kind's name (`kinds[kind]` or `kindOne[kind]`); agreement needs the kind itself. */
const kindOf = (names: Record<Kind, string>, name: string): Kind =>
  (Object.keys(names) as Kind[]).find((kind) => names[kind] === name) ?? 'SIGNATURE';
const none: Record<Kind, string> = {
  SIGNATURE: 'Aún no hay firmas guardadas.',
  INITIALS: 'Aún no hay iniciales guardadas.',
  STAMP: 'Aún no hay sellos guardados.',
};
const su: Record<Kind, string> = { SIGNATURE: 'su firma', INITIALS: 'sus iniciales', STAMP: 'su sello' };
const saved: Record<Kind, string> = { SIGNATURE: 'guardada', INITIALS: 'guardadas', STAMP: 'guardado' };

/** El español del perfil (trato de usted). */
export const es: Messages = {
  profileText: {
    title: 'Perfil',
    loading: 'Cargando…',
    sectionsNav: 'Secciones del perfil',
    sectionTitles: { account: 'Cuenta', security: 'Inicio de sesión y seguridad', signatures: 'Firmas' },
    unknownSection: 'Su perfil no tiene esa sección.',
    saving: 'Guardando…',
    cancel: 'Cancelar',
    delete: 'Eliminar',

    accountTitle: 'Su cuenta',
    name: 'Nombre',
    email: 'Correo electrónico',
    accountReadOnly:
      'Su nombre y su correo electrónico son los de su cuenta; el servicio aún no permite cambiarlos aquí.',
    passwordNote: 'El servicio aún no permite cambiar la contraseña.',
    languageTitle: 'Idioma',
    locale: 'Idioma preferido',
    localeHint:
      'Los correos que reciben los destinatarios de los sobres que usted envía están escritos en este idioma (si los correos no existen en él, como en el caso de Svenska, se aplica el ajuste del propietario de su organización y, si no, el inglés). Las páginas en sí, tanto el espacio de trabajo como las páginas de firma y de inicio de sesión, siguen el idioma elegido en el menú Idioma.',
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
    saveLocale: 'Guardar el idioma',
    localeSaved: (name: string) => `Idioma preferido guardado: ${name}.`,
    notificationsTitle: 'Notificaciones por correo',
    notificationsLegend: 'Enviarme un correo cuando',
    notificationsHint:
      'Las solicitudes de firma, los códigos de un solo uso y los correos de seguridad y de invitación se envían siempre.',
    notifications: {
      workflowCompleted: 'se complete un sobre que he enviado',
      workflowDeclined: 'un destinatario rechace un sobre que he enviado',
      workflowDelegated: 'un destinatario pase su tarea a otra persona',
      workflowVoided: 'se anule un sobre en el que participo',
      commentAdded: 'alguien comente un sobre en el que participo',
      documentOpened: 'un destinatario abra un sobre que he enviado',
    },
    saveNotifications: 'Guardar las notificaciones',
    notificationsSaved: 'Se han guardado los ajustes de notificación.',

    twoFactorTitle: 'Inicio de sesión en dos pasos',
    twoFactorOn:
      'Activado: al iniciar sesión con su contraseña también se le pide un código de su aplicación de autenticación.',
    twoFactorOff: 'Desactivado: basta con su contraseña para iniciar sesión.',
    twoFactorStart: 'Configurar el inicio de sesión en dos pasos',
    twoFactorStarting: 'Preparando…',
    twoFactorScan:
      'Escanee este código QR con su aplicación de autenticación (por ejemplo, Google Authenticator, Microsoft Authenticator o 1Password).',
    qrAlt: 'Código QR para su aplicación de autenticación',
    manualKey: 'O escriba esta clave en la aplicación',
    code: 'Código de la aplicación',
    codeHint: '6 dígitos; uno nuevo cada 30 segundos.',
    codeRule: 'Introduzca los 6 dígitos que muestra la aplicación.',
    twoFactorConfirm: 'Activar el inicio de sesión en dos pasos',
    twoFactorCancel: 'Cancelar la configuración',
    twoFactorEnabled:
      'El inicio de sesión en dos pasos está activado. La próxima vez que inicie sesión, tenga a mano su aplicación de autenticación.',
    twoFactorDisableTitle: 'Desactivar el inicio de sesión en dos pasos',
    twoFactorDisableText: 'Introduzca su contraseña y un código actual de la aplicación.',
    password: 'Contraseña',
    passwordRequired: 'Introduzca su contraseña.',
    twoFactorDisable: 'Desactivar el inicio de sesión en dos pasos',
    twoFactorDisabled: 'El inicio de sesión en dos pasos está desactivado.',

    passkeysTitle: 'Llaves de acceso',
    passkeysIntro:
      'Una llave de acceso le permite iniciar sesión con el bloqueo de pantalla de este dispositivo o con una llave de seguridad, sin contraseña.',
    passkeysUnsupported: 'Este navegador no puede crear llaves de acceso.',
    passkeyName: 'Nombre de la nueva llave de acceso',
    passkeyNameHint: 'Por ejemplo, «Portátil del trabajo», para distinguir sus llaves de acceso.',
    addPasskey: 'Añadir una llave de acceso',
    addingPasskey: 'Esperando a su dispositivo…',
    passkeyAdded: (name: string) => `Se ha añadido la llave de acceso «${name}».`,
    passkeyCancelled: 'No se ha creado la llave de acceso: la solicitud se canceló o caducó.',
    passkeyFailed: 'Este dispositivo no ha podido crear una llave de acceso.',
    passkeysCaption: (n: number) => plural('es', n, { one: '1 llave de acceso', other: `${n} llaves de acceso` }),
    noPasskeys: 'Aún no hay llaves de acceso.',
    added: 'Añadida',
    lastUsed: 'Último uso',
    never: 'Nunca',
    synced: 'Sincronizada',
    syncedYes: 'Sí, con copia de seguridad',
    syncedNo: 'No, solo en este dispositivo',
    actions: 'Acciones',
    deletePasskeyOf: (name: string) => `Eliminar la llave de acceso ${name}`,
    deletePasskeyTitle: (name: string) => `¿Eliminar la llave de acceso «${name}»?`,
    deletePasskeyText:
      'Ya no podrá iniciar sesión con ella. Puede que la llave siga en el dispositivo; elimínela también allí.',
    passkeyDeleted: (name: string) => `Se ha eliminado la llave de acceso «${name}».`,

    libraryTitle: 'Biblioteca de firmas',
    libraryIntro:
      'Firmas, iniciales y sellos guardados que puede aplicar al firmar. El predeterminado de cada tipo se ofrece primero.',
    kinds,
    kindOne,
    noEntries: (kind: string) => none[kindOf(kinds, kind)],
    defaultBadge: 'Predeterminado',
    entryAlt: (kind: string, name: string) => `${kind} «${name}»`,
    captureModes: { DRAW: 'Dibujado', TYPE: 'Escrito', UPLOAD: 'Subido' },
    makeDefault: 'Establecer como predeterminado',
    makeDefaultOf: (name: string) => `Establecer «${name}» como predeterminado`,
    deleteEntryOf: (name: string) => `Eliminar «${name}»`,
    deleteEntryTitle: (name: string) => `¿Eliminar «${name}»?`,
    deleteEntryText: 'Los documentos que ya haya firmado con él no cambian.',
    entryDeleted: (name: string) => `Se ha eliminado «${name}».`,
    defaultSet: (name: string) => `«${name}» es ahora el predeterminado.`,
    addTitle: 'Añadir a la biblioteca',
    kind: 'Tipo',
    entryName: 'Nombre',
    entryNameHint: 'Cómo lo llama usted. Si lo escribe, es también el texto que aparece.',
    entryNameRequired: 'Póngale un nombre.',
    typedTooLong: 'Una firma escrita tiene como máximo 50 caracteres.',
    how: 'Cómo',
    draw: 'Dibujar',
    type: 'Escribir',
    upload: 'Subir una imagen',
    drawLabel: (kind: string) =>
      `Área de dibujo para ${su[kindOf(kindOne, kind)]}: dibuje con el ratón, un lápiz o el dedo`,
    drawHint: 'Dibuje con el ratón, un lápiz o el dedo. ¿No puede dibujar? Elija Escribir.',
    clear: 'Borrar el dibujo',
    drawEmpty: 'Dibuje algo primero, o elija Escribir.',
    font: 'Fuente',
    fonts: {
      DANCING_SCRIPT: 'Manuscrita (Dancing Script)',
      LIBERATION_SANS: 'Sencilla (Liberation Sans)',
      LIBERATION_SANS_ITALIC: 'Cursiva (Liberation Sans)',
    },
    typedPreview: 'Vista previa',
    image: 'Archivo de imagen',
    imageHint: 'PNG o JPEG, 1 MB como máximo.',
    imageRequired: 'Elija una imagen.',
    imageType: 'Elija una imagen PNG o JPEG.',
    imageSize: 'La imagen supera 1 MB.',
    imageUnreadable: 'No se ha podido leer esta imagen.',
    imagePreviewAlt: 'La imagen elegida',
    uploadStampOnly: 'Subir una imagen solo es posible para los sellos.',
    save: 'Guardar en la biblioteca',
    entryAdded: (kind: string, name: string) => `${kind} «${name}» ${saved[kindOf(kindOne, kind)]}.`,
  },
};
