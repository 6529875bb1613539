import type { Messages } from './en.ts';

const minutes = (n: number) => `${n} ${n === 1 ? 'minuto' : 'minutos'}`;

/** O português (europeu) da página de início de sessão: tratamento formal. */
export const pt: Messages = {
  title: 'Iniciar sessão',
  noAccount: 'É novo por aqui?',
  signUp: 'Criar uma conta',
  intro: 'Inicie sessão para enviar documentos e assinar os que outras pessoas lhe enviaram.',
  email: 'E-mail',
  password: 'Palavra-passe',
  rememberMe: 'Manter a sessão iniciada neste dispositivo durante 30 dias',
  submit: 'Iniciar sessão',
  submitting: 'A iniciar sessão…',
  totpTitle: 'Autenticação de dois fatores',
  totpIntro: 'Introduza o código de 6 dígitos da sua aplicação de autenticação.',
  totpLabel: 'Código de autenticação',
  totpSubmit: 'Verificar código',
  back: 'Voltar',
  otherWays: 'Outras formas de iniciar sessão',
  wrongCredentials: 'O e-mail ou a palavra-passe não estão corretos.',
  wrongCode: 'O código não está correto ou já foi utilizado. Aguarde pelo código seguinte e tente novamente.',
  locked: (n: number) => `Demasiadas tentativas falhadas. Tente novamente dentro de ${minutes(n)}.`,
  expired: 'Esta página de início de sessão expirou ou foi aberta noutro navegador.',
  startAgain: 'Recomeçar',
  failed: 'Não foi possível iniciar sessão. Verifique a ligação à Internet e tente novamente.',
  missingFields: 'Introduza o seu e-mail e a sua palavra-passe.',
  missingCode: 'Introduza o código de 6 dígitos.',
  passkeyTitle: 'Iniciar sessão com uma chave de acesso',
  passkeyIntro:
    'Introduza o seu e-mail acima e utilize depois a chave de acesso guardada neste dispositivo ou a sua chave de segurança.',
  passkeySubmit: 'Iniciar sessão com uma chave de acesso',
  passkeyWaiting: 'A aguardar a sua chave de acesso…',
  passkeyNeedsEmail: 'Introduza primeiro o seu e-mail acima e escolha depois Iniciar sessão com uma chave de acesso.',
  passkeyUnsupported: 'Este navegador não suporta chaves de acesso. Inicie sessão com a sua palavra-passe.',
  passkeyCancelled: 'O pedido da chave de acesso foi cancelado ou expirou. Tente novamente quando estiver pronto.',
  passkeyRejected: 'Essa chave de acesso não foi aceite para esta conta.',
  cardTitle: 'Iniciar sessão com um cartão inteligente',
  cardIntro:
    'O seu navegador não consegue ler o cartão diretamente: assina um código curto com o software do cartão e cola aqui o resultado.',
  cardCertificate: 'Certificado do cartão (PEM)',
  cardCertificateFile: 'Ou escolha o ficheiro do certificado',
  cardGetHash: 'Obter o hash a assinar',
  cardGettingHash: 'A preparar…',
  cardHashStep: 'Assine este hash com o seu cartão',
  cardHash: 'Hash a assinar (base64)',
  cardCopy: 'Copiar o hash',
  cardCopied: 'O hash foi copiado.',
  cardCopyFailed: 'Não foi possível copiar: selecione o hash e copie-o manualmente.',
  cardHowTo: 'Como assiná-lo com o pkcs11-tool do OpenSC',
  cardHowToIntro:
    'Num terminal, com o cartão no leitor (utilize o caminho de opensc-pkcs11.so no seu sistema; acrescente --id com o identificador da chave se o cartão tiver várias; o pkcs11-tool pede o PIN):',
  cardHowToRsa: 'Para uma chave RSA:',
  cardHowToEc: 'Para uma chave de curva elíptica (ECDSA):',
  cardHowToLast: 'Depois, mostre a assinatura para a colar abaixo:',
  cardSignature: 'Assinatura (base64)',
  cardSubmit: 'Iniciar sessão com o cartão',
  cardRestart: 'Utilizar outro certificado',
  cardHashExpires: 'O hash pode ser utilizado uma única vez, no prazo de 5 minutos.',
  cardNeedsCertificate: 'Cole ou escolha primeiro o certificado do seu cartão.',
  cardNeedsSignature: 'Cole a assinatura em base64.',
  cardUnreadable:
    'Isso não é um certificado que esta página consiga ler. Cole o texto PEM, que começa por -----BEGIN CERTIFICATE-----.',
  cardFileUnreadable: 'Não foi possível ler esse ficheiro.',
  cardOff: 'O início de sessão com cartão inteligente não está ativado neste serviço.',
  cardExpiredChallenge: 'O hash expirou ou já foi utilizado. Obtenha um novo hash e assine-o novamente.',
  cardRejected: (reason: string) => {
    switch (reason) {
      case 'SIGNATURE':
        return 'A assinatura não corresponde ao hash e ao certificado. Assine exatamente o hash apresentado, com este cartão.';
      case 'UNTRUSTED_ISSUER':
        return 'O certificado deste cartão não foi emitido por uma entidade aceite por este serviço.';
      case 'NOT_YET_VALID':
        return 'O certificado deste cartão ainda não é válido.';
      case 'EXPIRED':
        return 'O certificado deste cartão expirou.';
      case 'KEY_USAGE':
        return 'O certificado deste cartão não pode ser utilizado para iniciar sessão.';
      case 'REVOKED':
        return 'O certificado deste cartão foi revogado.';
      case 'REVOCATION_UNKNOWN':
        return 'Não foi possível verificar se o certificado deste cartão foi revogado. Tente novamente mais tarde.';
      case 'NO_EMAIL':
        return 'O certificado deste cartão não indica nenhum endereço de e-mail.';
      case 'NO_ACCOUNT':
        return 'Nenhuma conta utiliza o endereço de e-mail do certificado deste cartão.';
      default:
        return 'O início de sessão com o cartão não foi aceite.';
    }
  },
  tooManyChallenges: (n: number) =>
    `Demasiadas tentativas de início de sessão a partir desta rede. Tente novamente dentro de ${minutes(n)}.`,
};
