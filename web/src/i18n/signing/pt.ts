import { PRODUCT_NAME } from '../../shared/product.ts';
import type { Mark, Messages } from './en.ts';

const sua: Record<Mark, string> = {
  signature: 'a sua assinatura',
  initials: 'as suas iniciais',
  stamp: 'o seu carimbo',
};
const attempts = (n: number) => (n === 1 ? 'Resta 1 tentativa.' : `Restam ${n} tentativas.`);

/** O português (europeu) da página de assinatura: tratamento formal, sem "tu". */
export const pt: Messages = {
  appName: PRODUCT_NAME,
  loading: 'A carregar…',
  opening: 'A abrir o seu documento…',
  skipToDocument: 'Ir para o documento',

  linkExpiredTitle: 'Esta ligação já não funciona',
  linkExpiredText:
    'A ligação de assinatura expirou, ou a tarefa que atribuía foi passada a outra pessoa. Não é possível prolongar ligações.',
  linkExpiredWhatToDo:
    'Peça ao remetente que volte a enviar o documento. Se passou a tarefa a outra pessoa, essa pessoa recebeu a sua própria ligação.',
  linkVoidedText:
    'O remetente cancelou este envelope, pelo que já não há nada para assinar. O motivo foi-lhe enviado por e-mail.',
  genericErrorTitle: 'Ocorreu um erro',
  genericErrorText: 'Não foi possível carregar o documento. Verifique a ligação à Internet e recarregue a página.',
  reload: 'Recarregar',
  requestReference: (id: string) => `Referência para o apoio: ${id}`,

  from: (name: string) => `De ${name}`,
  messageFromSender: 'Mensagem do remetente',
  brandLogoAlt: (organization: string) => `Logótipo de ${organization}`,
  involvedHeading: 'Quem participa',
  involvedOrdered: 'Todos atuam por esta ordem.',
  involvedUnordered: 'Todos podem atuar ao mesmo tempo.',
  you: 'você',
  role: { SIGNER: 'Assina', APPROVER: 'Aprova', CC: 'Recebe uma cópia' },
  recipientStatus: {
    PENDING: 'A aguardar a sua vez',
    SENT: 'Convidado',
    VIEWED: 'Abriu o documento',
    SIGNED: 'Assinou',
    APPROVED: 'Aprovou',
    DECLINED: 'Recusou',
    SKIPPED: 'Recebeu uma cópia',
    DELEGATED: 'Passou a tarefa a outra pessoa',
  },

  consentHeading: 'Antes de começar',
  consentIntro: 'Leia esta informação. Fica registada juntamente com a sua assinatura.',
  consentAgree: 'Aceito, continuar',
  consentDecline: 'Não aceito (recusar)',

  passwordHeading: 'Este documento está protegido',
  passwordIntro:
    'O remetente protegeu este documento com uma palavra-passe, que lhe deverá ter sido comunicada em separado.',
  passwordLabel: 'Palavra-passe',
  passwordSubmit: 'Abrir o documento',
  passwordWrong: 'A palavra-passe não está correta. Verifique-a e tente novamente.',
  passwordLocked: 'Demasiadas palavras-passe erradas. Aguarde algum tempo antes de tentar novamente.',

  otpHeading: 'Confirme a sua identidade',
  otpIntro: (email: string) =>
    `O remetente pediu-nos para verificar a sua identidade. Vamos enviar um código de 6 dígitos para ${email}.`,
  otpSend: 'Enviar-me um código',
  otpSent: (time: string) => `Enviámos-lhe um código por e-mail. É válido até às ${time}.`,
  otpLabel: 'Código recebido por e-mail',
  otpHint: '6 dígitos',
  otpVerify: 'Confirmar código',
  otpResend: 'Enviar um novo código',
  otpResendIn: (seconds: number) => `Poderá pedir um novo código dentro de ${seconds} s.`,
  otpWrong: (attemptsLeft: number) =>
    attemptsLeft > 0
      ? `O código não está correto. ${attempts(attemptsLeft)}`
      : 'Esse código já não é válido. Peça um novo código.',
  otpFormat: 'Introduza os 6 dígitos do e-mail.',
  otpTooSoon: (seconds: number) => `Aguarde ${seconds} s antes de pedir um novo código.`,
  otpVerified: 'Obrigado, a sua identidade está confirmada.',

  documentsHeading: 'Documento',
  documentOf: (name: string, index: number, total: number) =>
    total > 1 ? `${name} (documento ${index} de ${total})` : name,
  pageOf: (page: number, total: number) => `Página ${page} de ${total}`,
  zoomOut: 'Reduzir',
  zoomIn: 'Ampliar',
  zoomFit: 'Ajustar à largura',
  zoomLevel: (percent: number) => `Zoom ${percent}%`,
  pageLoading: 'A carregar a página…',
  pageFailed: 'Não é possível mostrar esta página.',

  fieldType: {
    SIGNATURE: 'Assinatura',
    INITIALS: 'Iniciais',
    TEXT: 'Texto',
    TEXTAREA: 'Texto',
    NUMBER: 'Número',
    EMAIL: 'E-mail',
    DATE: 'Data',
    CHECKBOX: 'Caixa de verificação',
    DROPDOWN: 'Escolha',
    NAME: 'Nome',
    NOTE: 'Nota',
    IMAGE: 'Imagem',
    STAMP: 'Carimbo',
    DIGITAL_SIGNATURE: 'Assinatura digital',
  },
  required: 'obrigatório',
  optional: 'opcional',
  filled: 'preenchido',
  empty: 'vazio',
  fieldButton: (label: string, required: boolean, filled: boolean) =>
    `${label}, ${required ? 'obrigatório' : 'opcional'}, ${filled ? 'preenchido' : 'vazio'}`,
  progress: (done: number, total: number) => `${done} de ${total} campos obrigatórios preenchidos`,
  nextField: 'Campo seguinte',
  previousField: 'Campo anterior',
  skipField: 'Saltar este campo',
  startFilling: 'Ir para o primeiro campo',
  today: 'Hoje',
  reviewFields: 'Rever os seus campos',
  allRequiredDone: 'Todos os campos obrigatórios estão preenchidos.',
  fieldPanelHeading: (label: string, position: number, total: number) => `${label} (campo ${position} de ${total})`,
  closeField: 'Fechar',
  noFieldsForYou: 'Não tem nada para preencher.',
  saved: 'Guardado',
  saving: 'A guardar…',
  savedLocally: 'Guardado neste dispositivo até concluir',
  saveFailed: 'Não foi possível guardar. O que introduziu fica neste dispositivo e será guardado quando concluir.',
  applyValue: 'Guardar e continuar',
  clearValue: 'Limpar',
  notePrefix: 'Nota do remetente',
  checkboxLabel: (label: string) => label,
  choosePlaceholder: 'Escolha…',
  dateShownAs: (text: string) => `Aparece no documento como: ${text}`,
  invalidNumber: 'Introduza um número, por exemplo 42 ou 3.5 (com ponto, não com vírgula).',
  invalidEmail: 'Introduza um endereço de e-mail, por exemplo nome@example.com.',
  invalidDate: 'Introduza uma data.',
  tooLong: (max: number) => `No máximo ${max} caracteres.`,
  requiredMissing: 'Este campo é obrigatório.',
  imageChoose: 'Escolher uma imagem',
  imageTooLarge: 'A imagem é demasiado grande. Utilize uma imagem com menos de 2 MB e 8000 píxeis por lado.',
  imageUnreadable: 'Não foi possível ler este ficheiro como imagem.',
  imagePreviewAlt: 'Imagem escolhida',
  stampFromFile: 'Um carimbo é uma imagem do carimbo da sua empresa. Escolha o ficheiro de imagem.',

  signatureHow: 'Como pretende assinar?',
  signatureDraw: 'Desenhar',
  signatureType: 'Escrever',
  drawAreaLabel: (m: Mark) => `Área de desenho para ${sua[m]}. Desenhe com o rato, uma caneta ou o dedo.`,
  drawHint: 'Desenhe dentro da caixa. Não tem rato nem ecrã tátil? Escolha Escrever.',
  drawEmpty: 'Desenhe primeiro a sua assinatura, ou escolha Escrever.',
  typeLabel: (m: Mark) => `Escreva ${sua[m]}`,
  typePreviewAlt: (m: Mark) =>
    m === 'initials'
      ? 'Pré-visualização das suas iniciais escritas'
      : m === 'stamp'
        ? 'Pré-visualização do seu carimbo escrito'
        : 'Pré-visualização da sua assinatura escrita',
  typeEmpty: 'Escreva primeiro o seu nome.',
  adoptSignature: (m: Mark) =>
    m === 'initials' ? 'Usar estas iniciais' : m === 'stamp' ? 'Usar este carimbo' : 'Usar esta assinatura',
  signaturePreviewAlt: (m: Mark) => sua[m].replace(/^a /, 'A ').replace(/^as /, 'As ').replace(/^o /, 'O '),
  changeSignature: 'Alterar',
  signingPasswordMissing: 'Introduza a sua palavra-passe de assinatura.',
  signingPasswordCreateLabel: 'Crie uma palavra-passe de assinatura',
  signingPasswordCreateHint: (min: number) =>
    `Esta é a sua primeira assinatura com um certificado de assinatura pessoal. A palavra-passe cria a sua chave de assinatura e protege-a: ninguém pode assinar com ela sem esta palavra-passe, nem mesmo o serviço. Utilize pelo menos ${min} caracteres e guarde-a em segurança; vai precisar dela para todas as assinaturas seguintes.`,
  signingPasswordConfirmLabel: 'Confirme a palavra-passe de assinatura',
  signingPasswordEnterLabel: 'Introduza a sua palavra-passe de assinatura',
  signingPasswordEnterHint:
    'A palavra-passe que escolheu quando assinou pela primeira vez com o seu certificado de assinatura. Desbloqueia a sua chave de assinatura para esta assinatura.',
  signingPasswordTooShort: (min: number) => `Utilize pelo menos ${min} caracteres.`,
  signingPasswordMismatch: 'As duas palavras-passe não coincidem.',
  signingPasswordWrong: (attemptsLeft: number | null) =>
    attemptsLeft === null
      ? 'A palavra-passe de assinatura está errada.'
      : `A palavra-passe de assinatura está errada. ${attempts(attemptsLeft)}`,
  signingPasswordLocked:
    'Demasiadas palavras-passe de assinatura erradas. Tente novamente dentro de 15 minutos, ou crie uma nova chave de assinatura abaixo.',
  signingKeyNotCertifiable:
    'O seu endereço tem de estar confirmado antes de ser possível emitir um certificado de assinatura para ele. Abra a ligação de confirmação que lhe enviámos quando criou a conta, ou assine a partir da ligação no e-mail do pedido de assinatura.',
  signingKeyForgot: 'Esqueceu-se da palavra-passe de assinatura?',
  signingKeyResetIntro:
    'Enviamos-lhe um código por e-mail. Com ele escolhe uma nova palavra-passe de assinatura, que cria uma nova chave e um novo certificado de assinatura. As suas assinaturas anteriores continuam válidas.',
  signingKeyResetSend: 'Enviar-me um código',
  signingKeyResetSending: 'A enviar…',
  signingKeyResetSent: 'Enviámos-lhe um código. É válido durante 10 minutos.',
  signingKeyResetCode: 'Código recebido por e-mail',
  signingKeyResetPassword: 'Nova palavra-passe de assinatura',
  signingKeyResetConfirm: 'Confirme a nova palavra-passe de assinatura',
  signingKeyResetSubmit: 'Criar uma nova chave de assinatura',
  signingKeyResetDone:
    'A sua nova chave de assinatura está pronta. Introduza a respetiva palavra-passe acima para assinar.',
  signingKeyResetCodeInvalid: 'Introduza os 6 dígitos do e-mail.',
  signedWithCertificate: 'Assinado com o seu certificado de assinatura pessoal.',
  libraryHeading: (m: Mark) =>
    m === 'initials'
      ? 'As suas iniciais guardadas'
      : m === 'stamp'
        ? 'Os seus carimbos guardados'
        : 'As suas assinaturas guardadas',
  libraryUse: (name: string) => `Usar «${name}»`,
  libraryImageAlt: (name: string) => `Guardado: ${name}`,
  librarySignIn: 'Tem uma conta? Inicie sessão para usar as suas assinaturas guardadas',

  actionsRegion: 'Preencher e assinar',
  finishHeading: 'Concluir',
  finishSign: 'Concluir e assinar',
  finishApprove: 'Aprovar',
  approveCommentLabel: 'Comentário para o remetente (opcional)',
  finishBlocked: (count: number) =>
    count === 1
      ? 'Preencha primeiro mais 1 campo obrigatório.'
      : `Preencha primeiro mais ${count} campos obrigatórios.`,
  moreActions: 'Outras opções',
  decline: 'Recusar',
  declineHeading: 'Recusar assinar',
  declineReasonLabel: 'Motivo (o remetente vai lê-lo)',
  declineConfirm: 'Recusar',
  declineReasonMissing: 'Indique ao remetente por que motivo recusa.',
  delegate: 'Pedir a outra pessoa',
  delegateHeading: 'Passar esta tarefa a outra pessoa',
  delegateIntro: 'Essa pessoa recebe um e-mail com a sua própria ligação, e a sua ligação deixa de funcionar.',
  delegateName: 'Nome da pessoa',
  delegateEmail: 'E-mail da pessoa',
  delegateConfirm: 'Passar a tarefa',
  delegateNameInvalid:
    'Introduza o nome: 2 a 50 caracteres, letras (um hífen ou apóstrofo entre duas letras), um só espaço entre palavras.',
  delegateEmailInvalid: 'Introduza o endereço de e-mail da pessoa.',
  cancel: 'Cancelar',
  close: 'Fechar',

  doneSignedTitle: 'Obrigado, assinou o documento',
  doneApprovedTitle: 'Obrigado, aprovou o documento',
  doneWaiting:
    'Os outros participantes ainda têm de atuar. Quando todos tiverem concluído, receberá o documento final por e-mail.',
  doneCompleted:
    'Todos concluíram. O documento está a ser selado; a transferência aparece aqui dentro de momentos e também o receberá por e-mail.',
  doneSealed: 'Todos concluíram. O documento está selado e pronto.',
  declinedTitle: 'Recusou',
  declinedText: 'O remetente foi informado, com o seu motivo. Já ninguém pode assinar este documento.',
  delegatedTitle: 'Tarefa passada',
  delegatedText: (name: string, email: string) =>
    `${name} (${email}) vai receber um e-mail com a sua própria ligação. A sua ligação já não funciona.`,
  voidTitle: 'Este documento foi cancelado',
  voidText: 'Alguém recusou ou o remetente cancelou-o. Já não é possível assinar nada.',
  notYourTurnTitle: 'Ainda não é a sua vez',
  notYourTurnText:
    'Outras pessoas atuam antes de si. Enviamos-lhe um e-mail quando for a sua vez; até lá, pode ler o documento.',
  ccTitle: 'Recebe uma cópia',
  ccText: 'Não precisa de fazer nada. Pode ler o documento aqui.',
  alreadyFinished: 'Já concluiu. Pode ler o documento aqui.',
  downloadsHeading: 'Transferir',
  downloadDocument: (name: string) => `Transferir ${name} (PDF selado)`,
  downloadCertificate: 'Transferir o certificado de conclusão',
  downloadFailed: 'A transferência falhou. Tente novamente dentro de momentos.',

  commentsHeading: 'Comentários',
  commentsEmpty: 'Ainda não há comentários.',
  commentLabel: 'Adicionar um comentário',
  commentOnField: (label: string) => `Sobre o campo «${label}»`,
  commentAboutField: (label: string) => `sobre «${label}»`,
  commentSend: 'Publicar comentário',
  commentEmpty: 'Escreva primeiro um comentário.',
  commentBy: (name: string, time: string) => `${name}, ${time}`,

  cscReturning: 'A regressar ao seu documento…',
  ssoTitle: 'Iniciar sessão',
  ssoHandedBack: 'Sessão iniciada. Esta janela fecha-se sozinha; se continuar aberta, feche-a.',
  ssoReturnToApp: 'Início de sessão concluído. Regresse à aplicação que lhe pediu para iniciar sessão.',
  ssoFailed: (reason: string) =>
    `O início de sessão não foi concluído (${reason}). Regresse à aplicação e tente novamente.`,
  cscNoSession: 'Esta página conclui uma assinatura remota. Regresse ao documento que estava a assinar.',

  cscHeading: 'Assinatura remota',
  cscIntro:
    'O seu serviço de assinatura assina com o seu próprio certificado: confirma a assinatura na página desse serviço e depois regressa aqui.',
  cscLoading: 'A procurar os seus certificados no seu serviço de assinatura…',
  cscCredentialLabel: 'Certificado',
  cscCredentialOption: (name: string, kind: string) => `${name}, ${kind}`,
  cscQualifier: {
    SES: 'assinatura eletrónica simples',
    AES: 'assinatura eletrónica avançada',
    QES: 'assinatura eletrónica qualificada',
  },
  cscSignButton: 'Assinar com o seu fornecedor de assinatura remota',
  cscRedirecting: 'A redirecioná-lo para o seu serviço de assinatura…',
  cscNoCredentials:
    'O seu serviço de assinatura não tem nenhum certificado para um tipo de assinatura aceite por este documento.',
  cscUnavailable:
    'Neste momento não é possível contactar o seu serviço de assinatura. Tente novamente dentro de momentos.',
  cscCompleting: 'A concluir a sua assinatura remota…',
  cscRefused: 'O seu serviço de assinatura não autorizou a assinatura. Nada foi assinado; pode tentar novamente.',
  cscFailed: (reason: string) =>
    `Não foi possível concluir a assinatura remota: ${reason} Nada foi assinado; pode tentar novamente.`,
  cscSigned: 'A sua assinatura remota foi adicionada ao documento.',

  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Abra a ligação de assinatura que recebeu por e-mail.',
};
