import { PRODUCT_NAME } from '../../shared/product.ts';
import type { Mark, Messages } from './en.ts';

const su: Record<Mark, string> = { signature: 'su firma', initials: 'sus iniciales', stamp: 'su sello' };
const attempts = (n: number) => (n === 1 ? 'Queda 1 intento.' : `Quedan ${n} intentos.`);

/** El español de la página de firma (trato de usted). */
export const es: Messages = {
  appName: PRODUCT_NAME,
  loading: 'Cargando…',
  opening: 'Abriendo su documento…',
  skipToDocument: 'Ir al documento',

  linkExpiredTitle: 'Este enlace ya no funciona',
  linkExpiredText:
    'El enlace de firma ha caducado, o la tarea que asignaba se ha pasado a otra persona. Los enlaces no se pueden prorrogar.',
  linkExpiredWhatToDo:
    'Pida al remitente que vuelva a enviar el documento. Si pasó la tarea a otra persona, esta ha recibido su propio enlace.',
  linkVoidedText:
    'El remitente ha anulado este sobre, así que ya no hay nada que firmar. Le hemos enviado su motivo por correo electrónico.',
  genericErrorTitle: 'Algo ha fallado',
  genericErrorText: 'No se ha podido cargar el documento. Compruebe su conexión y vuelva a cargar la página.',
  reload: 'Volver a cargar',
  requestReference: (id: string) => `Referencia para el soporte: ${id}`,

  from: (name: string) => `De ${name}`,
  messageFromSender: 'Mensaje del remitente',
  brandLogoAlt: (organization: string) => `Logotipo de ${organization}`,
  involvedHeading: 'Participantes',
  involvedOrdered: 'Cada persona actúa en este orden.',
  involvedUnordered: 'Todos pueden actuar a la vez.',
  you: 'usted',
  role: { SIGNER: 'Firma', APPROVER: 'Aprueba', CC: 'Recibe una copia' },
  recipientStatus: {
    PENDING: 'Esperando su turno',
    SENT: 'Invitado',
    VIEWED: 'Ha abierto el documento',
    SIGNED: 'Ha firmado',
    APPROVED: 'Ha aprobado',
    DECLINED: 'Ha rechazado',
    SKIPPED: 'Ha recibido una copia',
    DELEGATED: 'Ha pasado la tarea a otra persona',
  },

  consentHeading: 'Antes de empezar',
  consentIntro: 'Lea esta información. Se guarda junto con su firma.',
  consentAgree: 'Acepto, continuar',
  consentDecline: 'No acepto (rechazar)',

  passwordHeading: 'Este documento está protegido',
  passwordIntro:
    'El remitente ha protegido este documento con una contraseña. Debería habérsela facilitado por otra vía.',
  passwordLabel: 'Contraseña',
  passwordSubmit: 'Abrir el documento',
  passwordWrong: 'La contraseña no es correcta. Revísela e inténtelo de nuevo.',
  passwordLocked: 'Demasiadas contraseñas incorrectas. Espere un rato antes de volver a intentarlo.',

  otpHeading: 'Confirme su identidad',
  otpIntro: (email: string) =>
    `El remitente nos ha pedido que verifiquemos su identidad. Enviaremos un código de 6 dígitos a ${email}.`,
  otpSend: 'Enviarme un código',
  otpSent: (time: string) => `Le hemos enviado un código. Es válido hasta las ${time}.`,
  otpLabel: 'Código del correo',
  otpHint: '6 dígitos',
  otpVerify: 'Confirmar código',
  otpResend: 'Enviar un código nuevo',
  otpResendIn: (seconds: number) => `Podrá pedir un código nuevo dentro de ${seconds} s.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `El código no es correcto. ${attempts(attemptsLeft)}`
      : 'Ese código ya no es válido. Pida uno nuevo.',
  otpFormat: 'Introduzca los 6 dígitos del correo.',
  otpTooSoon: (seconds: number) => `Espere ${seconds} s antes de pedir un código nuevo.`,
  otpVerified: 'Gracias, su identidad está confirmada.',

  documentsHeading: 'Documento',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (documento ${index} de ${total})` : name,
  pageOf: (page: number, total: number) => `Página ${page} de ${total}`,
  zoomOut: 'Alejar',
  zoomIn: 'Acercar',
  zoomFit: 'Ajustar al ancho',
  zoomLevel: (percent: number) => `Zoom ${percent} %`,
  pageLoading: 'Cargando la página…',
  pageFailed: 'No se puede mostrar esta página.',

  fieldType: {
    SIGNATURE: 'Firma',
    INITIALS: 'Iniciales',
    TEXT: 'Texto',
    TEXTAREA: 'Texto',
    NUMBER: 'Número',
    EMAIL: 'Correo electrónico',
    DATE: 'Fecha',
    CHECKBOX: 'Casilla',
    DROPDOWN: 'Opción',
    NAME: 'Nombre',
    NOTE: 'Nota',
    IMAGE: 'Imagen',
    STAMP: 'Sello',
    DIGITAL_SIGNATURE: 'Firma digital',
  },
  required: 'obligatorio',
  optional: 'opcional',
  filled: 'completado',
  empty: 'vacío',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'obligatorio' : 'opcional'}, ${filled ? 'completado' : 'vacío'}`,
  progress: (done: number, total: number) => `${done} de ${total} campos obligatorios completados`,
  nextField: 'Campo siguiente',
  previousField: 'Campo anterior',
  skipField: 'Omitir este campo',
  startFilling: 'Ir al primer campo',
  today: 'Hoy',
  reviewFields: 'Revisar sus campos',
  allRequiredDone: 'Todos los campos obligatorios están completados.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (campo ${position} de ${total})`,
  closeField: 'Cerrar',
  noFieldsForYou: 'No tiene nada que rellenar.',
  saved: 'Guardado',
  saving: 'Guardando…',
  savedLocally: 'Se conserva en este dispositivo hasta que termine',
  saveFailed: 'No se ha podido guardar. Su entrada se conserva en este dispositivo y se guardará cuando termine.',
  applyValue: 'Guardar y continuar',
  clearValue: 'Borrar',
  notePrefix: 'Nota del remitente',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Elija…',
  dateShownAs: (text: string) => `Aparece en el documento como: ${text}`,
  invalidNumber: 'Introduzca un número, por ejemplo 42 o 3.5 (con punto, no con coma).',
  invalidEmail: 'Introduzca una dirección de correo electrónico, por ejemplo nombre@example.com.',
  invalidDate: 'Introduzca una fecha.',
  tooLong: (max: number) => `Como máximo ${max} caracteres.`,
  requiredMissing: 'Este campo es obligatorio.',
  imageChoose: 'Elegir una imagen',
  imageTooLarge: 'La imagen es demasiado grande. Use una imagen de menos de 2 MB y 8000 píxeles por lado.',
  imageUnreadable: 'Este archivo no se ha podido leer como imagen.',
  imagePreviewAlt: 'Imagen elegida',
  stampFromFile: 'Un sello es una imagen del sello de su empresa. Elija el archivo de imagen.',

  signatureHow: '¿Cómo desea firmar?',
  signatureDraw: 'Dibujar',
  signatureType: 'Escribir',
  drawAreaLabel: (m: Mark) => `Área de dibujo para ${su[m]}. Dibuje con el ratón, un lápiz o el dedo.`,
  drawHint: 'Dibuje dentro del recuadro. ¿No tiene ratón ni pantalla táctil? Elija Escribir.',
  drawEmpty: 'Dibuje primero su firma, o elija Escribir.',
  typeLabel: (m: Mark) => `Escriba ${su[m]}`,
  typePreviewAlt: (m: Mark) => `Vista previa de ${su[m]} escrit${m === 'initials' ? 'as' : m === 'stamp' ? 'o' : 'a'}`,
  typeEmpty: 'Escriba primero su nombre.',
  adoptSignature: (m: Mark) =>
    m === 'initials' ? 'Usar estas iniciales' : m === 'stamp' ? 'Usar este sello' : 'Usar esta firma',
  signaturePreviewAlt: (m: Mark) => su[m].replace(/^s/, 'S'),
  changeSignature: 'Cambiar',
  signingPasswordMissing: 'Introduzca su contraseña de firma.',
  signingPasswordCreateLabel: 'Cree una contraseña de firma',
  signingPasswordCreateHint: (min: number) =>
    `Es su primera firma con un certificado de firma personal. La contraseña crea su clave de firma y la protege: nadie puede firmar con ella sin esta contraseña, ni siquiera el servicio. Use al menos ${min} caracteres y guárdela en un lugar seguro; la necesitará para cada firma posterior.`,
  signingPasswordConfirmLabel: 'Confirme la contraseña de firma',
  signingPasswordEnterLabel: 'Introduzca su contraseña de firma',
  signingPasswordEnterHint:
    'La contraseña que eligió la primera vez que firmó con su certificado de firma. Desbloquea su clave de firma para esta firma.',
  signingPasswordTooShort: (min: number) => `Use al menos ${min} caracteres.`,
  signingPasswordMismatch: 'Las dos contraseñas no coinciden.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'La contraseña de firma no es correcta.'
      : `La contraseña de firma no es correcta. ${attempts(attemptsLeft)}`,
  signingPasswordLocked:
    'Demasiadas contraseñas de firma incorrectas. Vuelva a intentarlo dentro de 15 minutos, o cree una clave de firma nueva más abajo.',
  signingKeyNotCertifiable:
    'Su dirección debe estar confirmada antes de que se pueda emitir un certificado de firma para ella. Abra el enlace de confirmación que le enviamos al crear su cuenta, o firme desde el enlace del correo de solicitud de firma.',
  signingKeyForgot: '¿Ha olvidado su contraseña de firma?',
  signingKeyResetIntro:
    'Le enviamos un código por correo. Con él elige una contraseña de firma nueva, que crea una clave y un certificado de firma nuevos. Sus firmas anteriores siguen siendo válidas.',
  signingKeyResetSend: 'Enviarme un código',
  signingKeyResetSending: 'Enviando…',
  signingKeyResetSent: 'Le hemos enviado un código. Es válido durante 10 minutos.',
  signingKeyResetCode: 'Código del correo',
  signingKeyResetPassword: 'Contraseña de firma nueva',
  signingKeyResetConfirm: 'Confirme la contraseña de firma nueva',
  signingKeyResetSubmit: 'Crear una clave de firma nueva',
  signingKeyResetDone: 'Su clave de firma nueva está lista. Introduzca su contraseña arriba para firmar.',
  signingKeyResetCodeInvalid: 'Introduzca los 6 dígitos del correo.',
  signedWithCertificate: 'Firmado con su certificado de firma personal.',
  libraryHeading: (m: Mark) =>
    m === 'initials' ? 'Sus iniciales guardadas' : m === 'stamp' ? 'Sus sellos guardados' : 'Sus firmas guardadas',
  libraryUse: (name: string) => `Usar «${name}»`,
  libraryImageAlt: (name: string) => `Guardado: ${name}`,
  librarySignIn: '¿Tiene una cuenta? Inicie sesión para usar sus firmas guardadas',

  actionsRegion: 'Rellenar y firmar',
  finishHeading: 'Terminar',
  finishSign: 'Terminar y firmar',
  finishApprove: 'Aprobar',
  approveCommentLabel: 'Comentario para el remitente (opcional)',
  finishBlocked: (count: number) =>
    count === 1
      ? 'Antes debe completar 1 campo obligatorio más.'
      : `Antes debe completar ${count} campos obligatorios más.`,
  moreActions: 'Otras opciones',
  decline: 'Rechazar',
  declineHeading: 'Rechazar la firma',
  declineReasonLabel: 'Motivo (lo leerá el remitente)',
  declineConfirm: 'Rechazar',
  declineReasonMissing: 'Indique al remitente por qué rechaza.',
  delegate: 'Pasar a otra persona',
  delegateHeading: 'Pasar esta tarea a otra persona',
  delegateIntro: 'Esa persona recibirá un correo con su propio enlace, y el suyo dejará de funcionar.',
  delegateName: 'Nombre de la persona',
  delegateEmail: 'Correo electrónico de la persona',
  delegateConfirm: 'Pasar la tarea',
  delegateNameInvalid:
    'Introduzca el nombre: de 2 a 50 caracteres, letras (con un guion o un apóstrofo entre dos de ellas) y un solo espacio entre palabras.',
  delegateEmailInvalid: 'Introduzca la dirección de correo electrónico de la persona.',
  cancel: 'Cancelar',
  close: 'Cerrar',

  doneSignedTitle: 'Gracias, ha firmado',
  doneApprovedTitle: 'Gracias, ha aprobado',
  doneWaiting:
    'Los demás todavía tienen que actuar. Recibirá por correo el documento finalizado cuando todos hayan terminado.',
  doneCompleted:
    'Todos han terminado. El documento se está sellando; la descarga aparecerá aquí en un momento y también lo recibirá por correo.',
  doneSealed: 'Todos han terminado. El documento está sellado y listo.',
  declinedTitle: 'Ha rechazado',
  declinedText: 'Se ha informado al remitente, con su motivo. Ya nadie puede firmar este documento.',
  delegatedTitle: 'Tarea pasada',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) recibirá un correo con su propio enlace. Su enlace ya no funciona.`,
  voidTitle: 'Este documento se ha anulado',
  voidText: 'Alguien lo ha rechazado o el remitente lo ha anulado. Ya no se puede firmar nada.',
  notYourTurnTitle: 'Todavía no es su turno',
  notYourTurnText:
    'Otras personas actúan antes que usted. Le avisaremos por correo cuando sea su turno; mientras tanto, puede leer el documento.',
  ccTitle: 'Usted recibe una copia',
  ccText: 'No tiene que hacer nada. Puede leer el documento aquí.',
  alreadyFinished: 'Ya ha terminado. Puede leer el documento aquí.',
  downloadsHeading: 'Descarga',
  downloadDocument: (name: string) => `Descargar ${name} (PDF sellado)`,
  downloadCertificate: 'Descargar el certificado de finalización',
  downloadFailed: 'La descarga ha fallado. Vuelva a intentarlo en un momento.',

  commentsHeading: 'Comentarios',
  commentsEmpty: 'Todavía no hay comentarios.',
  commentLabel: 'Añadir un comentario',
  commentOnField: (label: string) => `Sobre el campo «${label}»`,
  commentAboutField: (label: string) => `sobre «${label}»`,
  commentSend: 'Publicar comentario',
  commentEmpty: 'Escriba primero un comentario.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'Volviendo a su documento…',
  ssoTitle: 'Iniciar sesión',
  ssoHandedBack: 'Ha iniciado sesión. Esta ventana se cierra sola; si sigue abierta, ciérrela.',
  ssoReturnToApp: 'Inicio de sesión completado. Vuelva a la aplicación que se lo pidió.',
  ssoFailed: (reason: string) =>
    `El inicio de sesión no se ha completado (${reason}). Vuelva a la aplicación e inténtelo de nuevo.`,
  cscNoSession: 'Esta página completa una firma remota. Vuelva al documento que estaba firmando.',

  cscHeading: 'Firma remota',
  cscIntro:
    'Su servicio de firma firma con su propio certificado: usted confirma la firma en su página y después vuelve aquí.',
  cscLoading: 'Buscando sus certificados en su servicio de firma…',
  cscCredentialLabel: 'Certificado',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'firma electrónica simple',
    AES: 'firma electrónica avanzada',
    QES: 'firma electrónica cualificada',
  },
  cscSignButton: 'Firmar con su proveedor de firma remota',
  cscRedirecting: 'Le llevamos a su servicio de firma…',
  cscNoCredentials: 'Su servicio de firma no tiene ningún certificado para un tipo de firma que acepte este documento.',
  cscUnavailable: 'No se puede contactar con su servicio de firma en este momento. Vuelva a intentarlo en un momento.',
  cscCompleting: 'Completando su firma remota…',
  cscRefused: 'Su servicio de firma no ha autorizado la firma. No se ha firmado nada; puede volver a intentarlo.',
  cscFailed: (reason: string) =>
    `No se ha podido completar la firma remota: ${reason} No se ha firmado nada; puede volver a intentarlo.`,
  cscSigned: 'Su firma remota se ha añadido al documento.',

  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Abra el enlace de firma de su correo electrónico.',
};
