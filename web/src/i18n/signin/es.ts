import type { Messages } from './en.ts';

const minutes = (n: number) => `${n} ${n === 1 ? 'minuto' : 'minutos'}`;

/** El español de la página de inicio de sesión (trato de usted). */
export const es: Messages = {
  title: 'Iniciar sesión',
  noAccount: '¿Es nuevo aquí?',
  signUp: 'Crear una cuenta',
  intro: 'Inicie sesión para enviar documentos y firmar los que otros le han enviado.',
  email: 'Correo electrónico',
  password: 'Contraseña',
  rememberMe: 'Mantener la sesión iniciada en este dispositivo durante 30 días',
  submit: 'Iniciar sesión',
  submitting: 'Iniciando sesión…',
  totpTitle: 'Autenticación en dos pasos',
  totpIntro: 'Introduzca el código de 6 dígitos de su aplicación de autenticación.',
  totpLabel: 'Código de autenticación',
  totpSubmit: 'Verificar código',
  back: 'Atrás',
  otherWays: 'Otras formas de iniciar sesión',
  wrongCredentials: 'El correo electrónico o la contraseña no son correctos.',
  wrongCode: 'El código no es correcto o ya se ha usado. Espere al siguiente código e inténtelo de nuevo.',
  locked: (n: number) => `Demasiados intentos fallidos. Vuelva a intentarlo dentro de ${minutes(n)}.`,
  expired: 'Esta página de inicio de sesión ha caducado o se abrió en otro navegador.',
  startAgain: 'Empezar de nuevo',
  failed: 'No se ha podido iniciar sesión. Compruebe su conexión e inténtelo de nuevo.',
  missingFields: 'Introduzca su correo electrónico y su contraseña.',
  missingCode: 'Introduzca el código de 6 dígitos.',
  passkeyTitle: 'Iniciar sesión con una llave de acceso',
  passkeyIntro:
    'Introduzca arriba su correo electrónico y use después la llave de acceso guardada en este dispositivo o su llave de seguridad.',
  passkeySubmit: 'Iniciar sesión con una llave de acceso',
  passkeyWaiting: 'Esperando su llave de acceso…',
  passkeyNeedsEmail:
    'Introduzca primero su correo electrónico arriba y elija después Iniciar sesión con una llave de acceso.',
  passkeyUnsupported: 'Este navegador no admite llaves de acceso. Inicie sesión con su contraseña.',
  passkeyCancelled: 'La solicitud de la llave de acceso se canceló o caducó. Inténtelo de nuevo cuando esté listo.',
  passkeyRejected: 'Esa llave de acceso no se ha aceptado para esta cuenta.',
  cardTitle: 'Iniciar sesión con una tarjeta inteligente',
  cardIntro:
    'Su navegador no puede leer la tarjeta por sí mismo, así que usted firma un código corto con el software de su tarjeta y pega aquí el resultado.',
  cardCertificate: 'Certificado de la tarjeta (PEM)',
  cardCertificateFile: 'O elija el archivo del certificado',
  cardGetHash: 'Obtener el hash que hay que firmar',
  cardGettingHash: 'Preparando…',
  cardHashStep: 'Firme este hash con su tarjeta',
  cardHash: 'Hash que hay que firmar (base64)',
  cardCopy: 'Copiar el hash',
  cardCopied: 'Se ha copiado el hash.',
  cardCopyFailed: 'No se ha podido copiar: seleccione el hash y cópielo usted.',
  cardHowTo: 'Cómo firmarlo con pkcs11-tool de OpenSC',
  cardHowToIntro:
    'En un terminal, con la tarjeta en el lector (use la ruta de opensc-pkcs11.so de su sistema; añada --id con el identificador de la clave si la tarjeta tiene varias; pkcs11-tool le pedirá el PIN):',
  cardHowToRsa: 'Para una clave RSA:',
  cardHowToEc: 'Para una clave de curva elíptica (ECDSA):',
  cardHowToLast: 'Después, muestre la firma para pegarla abajo:',
  cardSignature: 'Firma (base64)',
  cardSubmit: 'Iniciar sesión con la tarjeta',
  cardRestart: 'Usar otro certificado',
  cardHashExpires: 'El hash se puede usar una sola vez, en un plazo de 5 minutos.',
  cardNeedsCertificate: 'Pegue o elija primero el certificado de su tarjeta.',
  cardNeedsSignature: 'Pegue la firma en base64.',
  cardUnreadable:
    'Eso no es un certificado que esta página pueda leer. Pegue el texto PEM, que empieza por -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'No se ha podido leer ese archivo.',
  cardOff: 'El inicio de sesión con tarjeta inteligente no está activado en este servicio.',
  cardExpiredChallenge: 'El hash ha caducado o ya se ha usado. Obtenga un hash nuevo y vuelva a firmarlo.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'La firma no coincide con el hash y el certificado. Firme exactamente el hash mostrado, con esta tarjeta.';
      case 'UNTRUSTED_ISSUER':
        return 'El certificado de esta tarjeta no lo ha emitido una autoridad que este servicio acepte.';
      case 'NOT_YET_VALID':
        return 'El certificado de esta tarjeta todavía no es válido.';
      case 'EXPIRED':
        return 'El certificado de esta tarjeta ha caducado.';
      case 'KEY_USAGE':
        return 'El certificado de esta tarjeta no se puede usar para iniciar sesión.';
      case 'REVOKED':
        return 'El certificado de esta tarjeta se ha revocado.';
      case 'REVOCATION_UNKNOWN':
        return 'No se ha podido comprobar si el certificado de esta tarjeta está revocado. Inténtelo más tarde.';
      case 'NO_EMAIL':
        return 'El certificado de esta tarjeta no contiene ninguna dirección de correo electrónico.';
      case 'NO_ACCOUNT':
        return 'Ninguna cuenta usa la dirección de correo electrónico del certificado de esta tarjeta.';
      default:
        return 'No se ha aceptado el inicio de sesión con la tarjeta.';
    }
  },
  tooManyChallenges: (n: number) =>
    `Demasiados intentos de inicio de sesión desde esta red. Vuelva a intentarlo dentro de ${minutes(n)}.`,
};
