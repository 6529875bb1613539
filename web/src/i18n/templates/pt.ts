import { FIELD_TYPE_NAMES } from '../field-types.ts';
import { plural } from '../plural.ts';
import type { Messages } from './en.ts';

const count = (n: number, one: string, other: string) =>
  plural('pt-PT', n, { one: `${n} ${one}`, other: `${n} ${other}` });
const decimal = (n: number) => n.toLocaleString('pt-PT', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An envelope's status in the list of envelopes to copy (envelope is masculine). */
const status: Record<string, string> = {
  DRAFT: 'rascunho',
  SENT: 'enviado',
  COMPLETED: 'concluído',
  VOID: 'cancelado',
  APPROVED: 'aprovado',
};
/** A field without a label is named by its type. */
const fieldType: Record<string, string> = FIELD_TYPE_NAMES.pt;

/** O português (europeu) dos modelos: tratamento formal, sem "tu". */
export const pt: Messages = {
  templatesText: {
    title: 'Modelos',
    loading: 'A carregar…',
    saving: 'A guardar…',
    actions: 'Ações',
    name: 'Nome',
    description: 'Descrição',
    updated: 'Alterado',
    delete: 'Eliminar',
    rename: 'Mudar o nome',
    search: 'Pesquisar',
    searchTemplates: 'Pesquisar modelos por nome',

    foldersTitle: 'Pastas',
    foldersNav: 'Pastas de modelos',
    allTemplates: 'Todos os modelos',
    rootFolder: 'Fora de pastas',
    newFolder: 'Nova pasta',
    newSubfolder: 'Nova subpasta',
    folderName: 'Nome da pasta',
    folderNameRule: 'De 1 a 50 caracteres.',
    createFolder: 'Criar pasta',
    newFolderTitle: (parent: string | null) => (parent ? `Nova pasta em ${parent}` : 'Nova pasta'),
    folderCreated: (name: string) => `Pasta ${name} criada.`,
    renameFolderTitle: (name: string) => `Mudar o nome da pasta ${name}`,
    folderRenamed: (name: string) => `A pasta chama-se agora ${name}.`,
    deleteFolderTitle: (name: string) => `Eliminar a pasta ${name}?`,
    deleteFolderText: 'Só é possível eliminar uma pasta vazia: mova ou elimine primeiro os seus modelos e subpastas.',
    folderDeleted: (name: string) => `Pasta ${name} eliminada.`,
    folderActions: (name: string) => `Pasta ${name}`,
    renameFolderOf: (name: string) => `Mudar o nome da pasta ${name}`,
    deleteFolderOf: (name: string) => `Eliminar a pasta ${name}`,
    accessOf: (name: string) => `Acesso à pasta ${name}`,
    access: 'Acesso',
    accessTitle: (name: string) => `Quem vê a pasta ${name}`,
    accessText:
      'Por predefinição, todas as pessoas com a permissão Modelos veem uma pasta. Pode restringi-la a algumas funções: o proprietário vê-a sempre, e a restrição aplica-se também às subpastas.',
    restrict: 'Apenas os membros com as funções escolhidas abaixo veem esta pasta',
    rolesLegend: 'Funções que a veem',
    noRolesYet: 'A sua organização ainda não tem funções ativas.',
    saveAccess: 'Guardar o acesso',
    accessSaved: (name: string) => `Acesso a ${name} guardado.`,

    newTemplate: 'Novo modelo',
    newFromEnvelope: 'Novo modelo a partir de um envelope',
    templatesCaption: (n: number, where: string) => `${count(n, 'modelo', 'modelos')} (${where})`,
    templatesPages: 'Páginas de modelos',
    noTemplates: 'Ainda não há modelos aqui. Crie um a partir de um envelope que tenha preparado.',
    noTemplatesMatch: 'Nenhum modelo corresponde a esta pesquisa.',
    placeholders: 'Destinatários a preencher',
    noPlaceholders: 'Nenhum',
    use: 'Usar',
    useOf: (name: string) => `Usar ${name}: criar um rascunho de envelope`,
    send: 'Enviar',
    sendOf: (name: string) => `Enviar ${name}`,
    analytics: 'Estatísticas',
    analyticsOf: (name: string) => `Estatísticas de ${name}`,
    renameOf: (name: string) => `Mudar o nome de ${name}`,
    move: 'Mover',
    moveOf: (name: string) => `Mover ${name}`,
    copy: 'Copiar',
    copyOf: (name: string) => `Copiar ${name}`,
    deleteOf: (name: string) => `Eliminar ${name}`,
    more: 'Mais',
    moreFor: (name: string) => ` ações para ${name}`,
    using: 'A criar o envelope…',
    useFailed: 'Não foi possível criar o envelope a partir deste modelo.',
    renameTitle: (name: string) => `Mudar o nome de ${name}`,
    templateName: 'Nome do modelo',
    templateNameRule: 'De 1 a 50 caracteres; único na respetiva pasta.',
    renamed: (name: string) => `O modelo chama-se agora ${name}.`,
    moveTitle: (name: string) => `Mover ${name}`,
    moveTo: 'Pasta',
    moved: (name: string, folder: string) => `${name} movido para ${folder}.`,
    copied: (name: string) => `Cópia criada: ${name}.`,
    deleteTitle: (name: string) => `Eliminar o modelo ${name}?`,
    deleteText: 'Os envelopes já criados a partir dele mantêm-se como estão.',
    deleted: (name: string) => `Modelo ${name} eliminado.`,

    createTitle: 'Novo modelo a partir de um envelope',
    createText:
      'O modelo copia os documentos, os destinatários e os campos do envelope. As alterações posteriores ao envelope não alteram o modelo.',
    source: 'Envelope a copiar',
    sourceSearch: 'Procurar um envelope por nome',
    sourceHint:
      'Os seus próprios envelopes com documentos e destinatários (exceto os assinados apenas por si e os Power Survey).',
    sourceNone: 'Escolha um envelope',
    sourceRequired: 'Escolha o envelope a copiar.',
    noSources:
      'Nenhum dos seus envelopes pode ainda tornar-se um modelo: prepare primeiro um com documentos e destinatários.',
    sourceOption: (name: string, state: string, recipients: number) =>
      `${name} (${status[state] ?? state.toLowerCase()}, ${count(recipients, 'destinatário', 'destinatários')})`,
    slotsLegend: 'Destinatários: quais ficam por preencher?',
    slotsHint:
      'Dê uma etiqueta a um destinatário (por exemplo, «Cliente») para que fique por preencher: quem enviar o modelo indica o nome e o e-mail. Sem etiqueta, o destinatário mantém-se como está.',
    slotLabel: (order: number, name: string, role: string) => `Etiqueta do destinatário ${order}: ${name} (${role})`,
    folder: 'Pasta',
    reminders: 'Enviar lembretes aos destinatários que ainda não agiram',
    reminderDays: 'De quantos em quantos dias',
    reminderDaysRule: 'De 1 a 30 dias.',
    nameRequired: 'Dê um nome ao modelo.',
    create: 'Criar modelo',
    created: (name: string) => `Modelo ${name} criado.`,

    roles: { SIGNER: 'signatário', APPROVER: 'aprovador', CC: 'recebe uma cópia' },

    dispatchTitle: (name: string) => `Enviar ${name}`,
    backToTemplates: 'Voltar aos modelos',
    dispatchIntro:
      'Indique quem recebe o envelope. Os destinatários a preencher são obrigatórios; os restantes podem ser alterados ou mantidos.',
    recipientLegend: (order: number, role: string, label: string | null) =>
      `Destinatário ${order}: ${role}${label ? ` (${label})` : ''}`,
    placeholder: 'A preencher',
    recipientName: 'Nome',
    recipientNameRule: 'De 3 a 50 caracteres: letras, hífenes ou apóstrofos entre letras, e espaços.',
    recipientEmail: 'E-mail',
    nameRuleError: 'Introduza um nome com 3 a 50 caracteres: letras, hífenes ou apóstrofos entre letras, e espaços.',
    emailRuleError: 'Introduza um endereço de e-mail válido.',
    sendNow: 'Enviar agora',
    sending: 'A enviar…',
    makeDraft: 'Criar primeiro um rascunho para editar',
    sendingDisabled: 'Preencha primeiro os campos assinalados.',

    analyticsTitle: (name: string) => `Estatísticas de ${name}`,
    completionTitle: 'Conclusão',
    completionRate: (rate: string) => `${rate} dos envelopes criados a partir deste modelo estão concluídos.`,
    completionSummary: (total: number) =>
      plural('pt-PT', total, {
        one: '1 envelope criado a partir deste modelo.',
        other: `${total} envelopes criados a partir deste modelo.`,
      }),
    countLabels: {
      completed: 'Concluídos',
      inProgress: 'Em curso',
      draft: 'Rascunhos',
      void: 'Cancelados',
      other: 'Outros',
    },
    completionChart: 'Envelopes por estado',
    timeTitle: 'Tempo até à assinatura',
    timeSummary: (n: number, avg: string, median: string, p90: string) =>
      `Em ${count(n, 'envelope concluído', 'envelopes concluídos')}: média ${avg}, mediana ${median}, 90% em menos de ${p90}.`,
    timeNone: 'Ainda nenhum envelope criado a partir deste modelo está concluído.',
    timeChart: 'Envelopes concluídos por tempo entre o envio e a conclusão',
    buckets: {
      under1h: 'Menos de 1 hora',
      under1d: '1 a 24 horas',
      under3d: '1 a 3 dias',
      under7d: '3 a 7 dias',
      over7d: '7 dias ou mais',
    },
    hours: (h: number) =>
      h < 1 ? `${Math.round(h * 60)} min` : h < 48 ? `${decimal(h)} h` : `${decimal(h / 24)} dias`,
    dropOffTitle: 'Abandono por campo',
    dropOffSummary: (sessions: number, since: string) =>
      `${count(sessions, 'sessão de assinatura', 'sessões de assinatura')} desde ${since}. A percentagem de signatários que chegaram a um campo mas o deixaram vazio.`,
    dropOffNone: 'Ainda não há sessões de assinatura.',
    dropOffChart: 'Taxa de abandono por campo',
    lowSample: 'menos de 20 sessões: ainda não é significativo',
    fieldLabel: (label: string | null, type: string, page: number) =>
      `${label || fieldType[type] || type} (página ${page})`,
    numbered: (label: string, n: number) => label.replace(/ \(página/, ` ${n} (página`),
    showTable: 'Mostrar os números numa tabela',
    status: 'Estado',
    envelopes: 'Envelopes',
    share: 'Percentagem',
    time: 'Tempo até à conclusão',
    field: 'Campo',
    reached: 'Alcançado',
    filled: 'Preenchido',
    dropOff: 'Abandono',
    recoveries: 'Voltaram para preencher',
    percent: (value: number) => `${Math.round(value * 100)}%`,
    chartValue: (label: string, value: string) => `${label}: ${value}`,
  },
};
