import type { Messages } from './en.ts';

const minutes = (n: number) => `${n} minute${n > 1 ? 's' : ''}`;

/** Le français de la page de connexion (vouvoiement). */
export const fr: Messages = {
  title: 'Connexion',
  noAccount: 'Nouveau ici ?',
  signUp: 'Créer un compte',
  intro: 'Connectez-vous pour envoyer des documents et signer ceux que l’on vous a envoyés.',
  email: 'E-mail',
  password: 'Mot de passe',
  rememberMe: 'Rester connecté sur cet appareil pendant 30 jours',
  submit: 'Se connecter',
  submitting: 'Connexion…',
  totpTitle: 'Authentification à deux facteurs',
  totpIntro: 'Saisissez le code à 6 chiffres de votre application d’authentification.',
  totpLabel: 'Code d’authentification',
  totpSubmit: 'Valider le code',
  back: 'Retour',
  otherWays: 'Autres moyens de connexion',
  wrongCredentials: 'L’adresse e-mail ou le mot de passe est incorrect.',
  wrongCode: 'Ce code est incorrect ou a déjà été utilisé. Attendez le code suivant et réessayez.',
  locked: (n: number) => `Trop de tentatives infructueuses. Réessayez dans ${minutes(n)}.`,
  expired: 'Cette page de connexion a expiré ou a été ouverte dans un autre navigateur.',
  startAgain: 'Recommencer',
  failed: 'La connexion a échoué. Vérifiez votre connexion Internet et réessayez.',
  missingFields: 'Saisissez votre adresse e-mail et votre mot de passe.',
  missingCode: 'Saisissez le code à 6 chiffres.',
  passkeyTitle: 'Se connecter avec une clé d’accès',
  passkeyIntro:
    'Saisissez votre adresse e-mail ci-dessus, puis utilisez la clé d’accès enregistrée sur cet appareil ou votre clé de sécurité.',
  passkeySubmit: 'Se connecter avec une clé d’accès',
  passkeyWaiting: 'En attente de votre clé d’accès…',
  passkeyNeedsEmail:
    'Saisissez d’abord votre adresse e-mail ci-dessus, puis choisissez Se connecter avec une clé d’accès.',
  passkeyUnsupported:
    'Ce navigateur ne prend pas en charge les clés d’accès. Connectez-vous plutôt avec votre mot de passe.',
  passkeyCancelled: 'La demande de clé d’accès a été annulée ou a expiré. Réessayez lorsque vous serez prêt.',
  passkeyRejected: 'Cette clé d’accès n’a pas été acceptée pour ce compte.',
  cardTitle: 'Se connecter avec une carte à puce',
  cardIntro:
    'Votre navigateur ne peut pas lire la carte lui-même : vous signez un code court avec le logiciel de votre carte, puis vous collez le résultat ici.',
  cardCertificate: 'Certificat de la carte (PEM)',
  cardCertificateFile: 'Ou choisissez le fichier du certificat',
  cardGetHash: 'Obtenir l’empreinte à signer',
  cardGettingHash: 'Préparation…',
  cardHashStep: 'Signez cette empreinte avec votre carte',
  cardHash: 'Empreinte à signer (base64)',
  cardCopy: 'Copier l’empreinte',
  cardCopied: 'L’empreinte a été copiée.',
  cardCopyFailed: 'La copie n’a pas fonctionné : sélectionnez l’empreinte et copiez-la vous-même.',
  cardHowTo: 'Comment la signer avec pkcs11-tool d’OpenSC',
  cardHowToIntro:
    'Dans un terminal, la carte dans son lecteur (indiquez le chemin d’opensc-pkcs11.so sur votre système ; ajoutez --id avec l’identifiant de la clé si la carte en contient plusieurs ; pkcs11-tool demande le code PIN) :',
  cardHowToRsa: 'Pour une clé RSA :',
  cardHowToEc: 'Pour une clé à courbe elliptique (ECDSA) :',
  cardHowToLast: 'Affichez ensuite la signature à coller ci-dessous :',
  cardSignature: 'Signature (base64)',
  cardSubmit: 'Se connecter avec la carte',
  cardRestart: 'Utiliser un autre certificat',
  cardHashExpires: 'L’empreinte n’est utilisable qu’une fois, dans les 5 minutes.',
  cardNeedsCertificate: 'Collez ou choisissez d’abord le certificat de votre carte.',
  cardNeedsSignature: 'Collez la signature en base64.',
  cardUnreadable:
    'Ce n’est pas un certificat que cette page peut lire. Collez le texte PEM, qui commence par -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'Ce fichier n’a pas pu être lu.',
  cardOff: 'La connexion par carte à puce n’est pas activée sur ce service.',
  cardExpiredChallenge: 'L’empreinte a expiré ou a déjà été utilisée. Obtenez-en une nouvelle et signez-la à nouveau.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'La signature ne correspond pas à l’empreinte et au certificat. Signez exactement l’empreinte affichée, avec cette carte.';
      case 'UNTRUSTED_ISSUER':
        return 'Le certificat de cette carte n’a pas été émis par une autorité acceptée par ce service.';
      case 'NOT_YET_VALID':
        return 'Le certificat de cette carte n’est pas encore valable.';
      case 'EXPIRED':
        return 'Le certificat de cette carte a expiré.';
      case 'KEY_USAGE':
        return 'Le certificat de cette carte ne peut pas servir à se connecter.';
      case 'REVOKED':
        return 'Le certificat de cette carte a été révoqué.';
      case 'REVOCATION_UNKNOWN':
        return 'Impossible de vérifier si le certificat de cette carte est révoqué. Réessayez plus tard.';
      case 'NO_EMAIL':
        return 'Le certificat de cette carte ne contient aucune adresse e-mail.';
      case 'NO_ACCOUNT':
        return 'Aucun compte n’utilise l’adresse e-mail du certificat de cette carte.';
      default:
        return 'La connexion par carte n’a pas été acceptée.';
    }
  },
  tooManyChallenges: (n: number) => `Trop de tentatives de connexion depuis ce réseau. Réessayez dans ${minutes(n)}.`,
};
