/**
 * The generator's own pools of names, places and words: forenames and
 * surnames of the communities of England and Wales, registration districts
 * (public geography), streets, occupations and causes of death.
 *
 * Lists are in rough order of how common their items are, the commonest
 * first: the generator weights them by rank (see `Weighted.ranked`), so the
 * first surnames of a list are shared by many records and searches hit several.
 *
 * Accented (Zoë, Søren, Bartłomiej), hyphenated (Anne-Marie, Lloyd-Jones) and
 * apostrophe (O'Connor, D'Souza) names are kept to the small share they have
 * in the registers; the generator also joins two surnames now and then.
 */

/** One list per era of birth: before 1950, 1950 to 1989, 1990 on. */
export interface ByEra<T> {
  readonly classic: T;
  readonly mid: T;
  readonly modern: T;
}

export interface Community {
  readonly name: string;
  readonly male: ByEra<readonly string[]>;
  readonly female: ByEra<readonly string[]>;
  readonly surnames: readonly string[];
  /** Birthplaces of members of the community born outside England and Wales. */
  readonly abroad: readonly string[];
  /** Relative share of people in England and in Wales. */
  readonly england: number;
  readonly wales: number;
  /** Multiplier of the share for people born before 1950. */
  readonly early: number;
}

const sameInEveryEra = <T>(list: T): ByEra<T> => ({ classic: list, mid: list, modern: list });

// ---------------------------------------------------------------------------
// Forenames and surnames, by community
// ---------------------------------------------------------------------------

const english: Community = {
  name: 'english',
  male: {
    classic: [
      'John', 'William', 'George', 'Thomas', 'James', 'Arthur', 'Frederick', 'Albert', 'Charles', 'Harold',
      'Henry', 'Ernest', 'Frank', 'Walter', 'Joseph', 'Alfred', 'Edward', 'Robert', 'Harry', 'Leonard',
      'Stanley', 'Sidney', 'Kenneth', 'Ronald', 'Dennis', 'Eric', 'Herbert', 'Reginald', 'Norman', 'Cyril',
      'Jack', 'Peter', 'Raymond', 'Donald', 'Leslie', 'Douglas', 'Gordon', 'Bernard', 'Percy', 'Cecil',
      'Clifford', 'Horace', 'Wilfred', 'Maurice', 'Gerald', 'Victor', 'Ralph', 'Roy', 'Hubert', 'Noël',
    ],
    mid: [
      'David', 'Paul', 'Mark', 'Michael', 'Andrew', 'Stephen', 'Richard', 'Peter', 'Christopher', 'Ian',
      'Gary', 'Robert', 'Alan', 'Steven', 'Anthony', 'Simon', 'Martin', 'Kevin', 'Neil', 'Philip',
      'Brian', 'Graham', 'Keith', 'Colin', 'Jonathan', 'Matthew', 'Darren', 'Lee', 'Stuart', 'Nigel',
      'Craig', 'Jason', 'Barry', 'Trevor', 'Terence', 'Timothy', 'Carl', 'Wayne', 'Dean', 'Adrian',
      'Russell', 'Nicholas', 'Daniel', 'Scott', 'Shaun', 'Jamie', 'Jeffrey', 'Glen', 'Ricky', 'Jean-Paul',
    ],
    modern: [
      'Oliver', 'Jack', 'Harry', 'George', 'Charlie', 'Thomas', 'Jacob', 'Noah', 'Oscar', 'Leo',
      'Alfie', 'Joshua', 'James', 'William', 'Freddie', 'Archie', 'Theo', 'Henry', 'Arthur', 'Isaac',
      'Ethan', 'Samuel', 'Daniel', 'Lucas', 'Max', 'Mason', 'Logan', 'Alexander', 'Benjamin', 'Dylan',
      'Finley', 'Reuben', 'Tyler', 'Callum', 'Connor', 'Ryan', 'Kieran', 'Bradley', 'Jake', 'Luke',
      'Liam', 'Aaron', 'Elliot', 'Louie', 'Toby', 'Harrison', 'Sebastian', 'Teddy', 'Rory', 'Jenson',
    ],
  },
  female: {
    classic: [
      'Mary', 'Margaret', 'Elizabeth', 'Dorothy', 'Joan', 'Doris', 'Florence', 'Edith', 'Annie', 'Alice',
      'Elsie', 'Ethel', 'Kathleen', 'Irene', 'Jean', 'Lilian', 'Gladys', 'Winifred', 'Hilda', 'Joyce',
      'Vera', 'Violet', 'Eileen', 'Marjorie', 'Edna', 'Betty', 'Phyllis', 'Ivy', 'Ada', 'Emily',
      'Grace', 'Rose', 'Barbara', 'Olive', 'Mabel', 'Evelyn', 'Audrey', 'Sylvia', 'Agnes', 'Beatrice',
      'Muriel', 'Nellie', 'Maud', 'Ruby', 'Mildred', 'Hazel', 'Gwendoline', 'Peggy', 'Constance', 'Marion',
    ],
    mid: [
      'Susan', 'Sarah', 'Julie', 'Karen', 'Helen', 'Linda', 'Lisa', 'Claire', 'Michelle', 'Nicola',
      'Joanne', 'Amanda', 'Deborah', 'Tracey', 'Jacqueline', 'Christine', 'Patricia', 'Sharon', 'Alison', 'Angela',
      'Elaine', 'Emma', 'Rachel', 'Louise', 'Catherine', 'Caroline', 'Gillian', 'Janet', 'Carol', 'Jane',
      'Kelly', 'Samantha', 'Donna', 'Dawn', 'Andrea', 'Anne', 'Ann', 'Pauline', 'Sandra', 'Wendy',
      'Lorraine', 'Valerie', 'Kim', 'Lynn', 'Maria', 'Anne-Marie', 'Sarah-Jane', 'Mary-Jane', 'Kelly-Ann', 'Renée',
    ],
    modern: [
      'Olivia', 'Amelia', 'Emily', 'Isla', 'Ava', 'Jessica', 'Lily', 'Sophie', 'Grace', 'Mia',
      'Isabella', 'Chloe', 'Poppy', 'Ella', 'Evie', 'Charlotte', 'Freya', 'Sophia', 'Ruby', 'Hannah',
      'Megan', 'Lucy', 'Holly', 'Ellie', 'Millie', 'Daisy', 'Phoebe', 'Florence', 'Ivy', 'Matilda',
      'Rosie', 'Willow', 'Scarlett', 'Harper', 'Erin', 'Lauren', 'Bethany', 'Amy', 'Katie', 'Abigail',
      'Eleanor', 'Imogen', 'Georgia', 'Maisie', 'Darcy', 'Zoë', 'Chloë', 'Lily-Rose', 'Ellie-Mae', 'Lily-Mae',
    ],
  },
  surnames: [
    'Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Johnson',
    'Roberts', 'Robinson', 'Thompson', 'Wright', 'Walker', 'White', 'Edwards', 'Hughes', 'Green', 'Hall',
    'Lewis', 'Harris', 'Clarke', 'Jackson', 'Wood', 'Turner', 'Martin', 'Cooper', 'Hill', 'Ward',
    'Morris', 'Moore', 'Clark', 'Lee', 'King', 'Baker', 'Harrison', 'Morgan', 'Allen', 'James',
    'Scott', 'Phillips', 'Watson', 'Davis', 'Parker', 'Price', 'Bennett', 'Young', 'Griffiths', 'Mitchell',
    'Kelly', 'Cook', 'Carter', 'Richardson', 'Bailey', 'Collins', 'Bell', 'Shaw', 'Miller', 'Cox',
    'Richards', 'Marshall', 'Anderson', 'Simpson', 'Ellis', 'Adams', 'Wilkinson', 'Foster', 'Chapman', 'Powell',
    'Webb', 'Rogers', 'Gray', 'Mason', 'Hunt', 'Matthews', 'Owen', 'Palmer', 'Holmes', 'Mills',
    'Barnes', 'Knight', 'Lloyd', 'Butler', 'Russell', 'Barker', 'Fisher', 'Stevens', 'Jenkins', 'Dixon',
    'Harvey', 'Graham', 'Pearson', 'Fletcher', 'Gibson', 'Howard', 'Andrews', 'Elliott', 'Reynolds', 'Saunders',
    'Payne', 'Fox', 'Ford', 'Pearce', 'Day', 'Brooks', 'West', 'Lawrence', 'Cole', 'Atkinson',
    'Bradley', 'Spencer', 'Dawson', 'Ball', 'Burton', 'Watts', 'Rose', 'Booth', 'Perry', 'Wells',
    'Armstrong', 'Francis', 'Hayes', 'Hart', 'Hudson', 'Newman', 'Barrett', 'Webster', 'Hunter', 'Gregory',
    'Carr', 'Lowe', 'Page', 'Marsh', 'Riley', 'Dunn', 'Woods', 'Parsons', 'Berry', 'Stone',
    'Holland', 'Hawkins', 'Harding', 'Porter', 'Newton', 'Oliver', 'Reed', 'Williamson', 'Bird', 'Gardner',
    'Dean', 'Lane', 'Cooke', 'Bates', 'Burgess', 'Bishop', 'Walton', 'Nicholson', 'Shepherd', 'Cross',
    'Long', 'Freeman', 'Warren', 'Nicholls', 'Sutton', 'Yates', 'Hodgson', 'Robson', 'Curtis', 'Hopkins',
    'Harper', 'Coleman', 'Watkins', 'Moss', 'Chambers', 'Griffin', 'Sharp', 'Hardy', 'Wheeler', 'Potter',
    'Osborne', 'Wallace', 'George', 'Jordan', 'Hutchinson', 'Rowe', 'May', 'Gilbert', 'Willis', 'Higgins',
    'Read', 'Miles', 'Stevenson', 'Stephenson', 'Hammond', 'Arnold', 'Buckley', 'Walters', 'Hewitt', 'Barber',
    'Nelson', 'Slater', 'Austin', 'Whitehead', 'Mann', 'Frost', 'Lambert', 'Stephens', 'Blake', 'Goodwin',
    'Barton', 'Woodward', 'Barnett', 'Baxter', 'Clayton', 'Nash', 'Greenwood', 'Jennings', 'Holt', 'Kemp',
    'Poole', 'Bond', 'Stokes', 'Tucker', 'Fowler', 'Heath', 'Norman', 'Middleton', 'Lawson', 'Banks',
    'French', 'Stanley', 'Jarvis', 'Gibbs', 'Hayward', 'Dickinson', 'Todd', 'Barlow', 'Peters', 'Lucas',
    'Knowles', 'Hartley', 'Simmons', 'Morton', 'Field', 'Norris', 'Townsend', 'Preston', 'Hancock', 'Thornton',
    'Baldwin', 'Burrows', 'Briggs', 'Storey', 'Pope', 'Hargreaves', 'Sutcliffe', 'Ackroyd', 'Entwistle', 'Greenhalgh',
    'Haworth', 'Kershaw', 'Lomax', 'Pickles', 'Crabtree', 'Holroyd', 'Hepworth', 'Brearley', 'Ramsbottom', 'Higginbottom',
    'Pascoe', 'Penrose', 'Tremayne', 'Nancarrow', 'Pengelly', 'Trevithick', 'Smith-Jones', 'Taylor-Johnson', 'Harding-Price', 'Brooke-Taylor',
  ],
  abroad: ['Glasgow, Scotland', 'Edinburgh, Scotland', 'Belfast, Northern Ireland', 'Dublin, Ireland', 'Toronto, Canada', 'Sydney, Australia', 'Auckland, New Zealand', 'Gibraltar', 'Cape Town, South Africa', 'Rinteln, Germany'],
  england: 78,
  wales: 24,
  early: 1.3,
};

const welsh: Community = {
  name: 'welsh',
  male: sameInEveryEra([
    'Rhys', 'Dafydd', 'Owain', 'Gareth', 'Huw', 'Emyr', 'Iwan', 'Gethin', 'Aled', 'Dewi',
    'Geraint', 'Hywel', 'Ioan', 'Morgan', 'Rhodri', 'Siôn', 'Tomos', 'Osian', 'Cai', 'Dylan',
    'Elis', 'Gruffudd', 'Iolo', 'Steffan', 'Trystan', 'Ifan', 'Wyn', 'Alun', 'Berwyn', 'Gwilym',
    'Idris', 'Emrys', 'Eifion', 'Llŷr', 'Macsen',
  ]),
  female: sameInEveryEra([
    'Megan', 'Catrin', 'Ffion', 'Cerys', 'Bethan', 'Carys', 'Elin', 'Rhiannon', 'Siân', 'Lowri',
    'Nia', 'Angharad', 'Eleri', 'Gwen', 'Sioned', 'Manon', 'Seren', 'Heledd', 'Mererid', 'Non',
    'Tegan', 'Mali', 'Efa', 'Alaw', 'Nerys', 'Glenys', 'Myfanwy', 'Olwen', 'Eirlys', 'Delyth',
    'Menna', 'Awen', 'Betsan', 'Enfys', 'Gwenllïan',
  ]),
  surnames: [
    'Jones', 'Williams', 'Davies', 'Evans', 'Thomas', 'Roberts', 'Hughes', 'Lewis', 'Morgan', 'Griffiths',
    'Edwards', 'Owen', 'Price', 'Lloyd', 'Rees', 'Jenkins', 'Powell', 'Parry', 'Pritchard', 'Morris',
    'Howells', 'Bowen', 'Vaughan', 'Pugh', 'Prosser', 'Probert', 'Pryce', 'Rowlands', 'Llewellyn', 'Meredith',
    'Gittins', 'Bevan', 'Ellis', 'Humphreys', 'Prydderch', 'Lloyd-Jones', 'Wynne-Jones', 'Vaughan-Thomas', 'Rhys-Davies', 'Parry-Williams',
  ],
  abroad: ['Patagonia, Argentina', 'Liverpool', 'Chester'],
  england: 2,
  wales: 62,
  early: 1.2,
};

const irishScottish: Community = {
  name: 'irish and scottish',
  male: sameInEveryEra([
    'Seán', 'Patrick', 'Declan', 'Liam', 'Conor', 'Ciarán', 'Pádraig', 'Eoin', 'Cormac', 'Niall',
    'Brendan', 'Kieran', 'Dermot', 'Colm', 'Oisín', 'Donal', 'Fergus', 'Hamish', 'Alasdair', 'Angus',
    'Callum', 'Ewan', 'Finlay', 'Lachlan', 'Ruairidh', 'Duncan', 'Malcolm', 'Fraser', 'Euan', 'Murdo',
  ]),
  female: sameInEveryEra([
    'Niamh', 'Aoife', 'Siobhán', 'Sinéad', 'Róisín', 'Órla', 'Saoirse', 'Caoimhe', 'Clodagh', 'Bridget',
    'Bernadette', 'Mairéad', 'Ciara', 'Aisling', 'Deirdre', 'Maeve', 'Gráinne', 'Nuala', 'Eimear', 'Sorcha',
    'Eilidh', 'Kirsty', 'Morag', 'Fiona', 'Catriona', 'Ailsa', 'Shona', 'Mhairi', 'Isla', 'Fionnuala',
  ]),
  surnames: [
    'Murphy', 'Kelly', "O'Brien", 'Byrne', 'Ryan', "O'Connor", 'Walsh', "O'Neill", 'Doyle', 'McCarthy',
    'Gallagher', "O'Sullivan", 'Doherty', 'Kennedy', 'Lynch', 'Quinn', "O'Reilly", 'Brennan', 'Kavanagh', 'Fitzgerald',
    "O'Donnell", 'Maguire', 'Nolan', "O'Leary", 'Flanagan', 'Duffy', "O'Callaghan", "O'Mahony", "O'Hara", "O'Keefe",
    'Campbell', 'MacDonald', 'Stewart', 'Robertson', 'Murray', 'MacLeod', 'MacKenzie', 'Fraser', 'Ross', 'Sinclair',
    'McLean', 'Cameron', 'Grant', 'Ferguson', 'Buchanan', 'Reid', 'Henderson', 'Kerr', 'Docherty', 'Sweeney',
  ],
  abroad: ['Dublin, Ireland', 'Cork, Ireland', 'Galway, Ireland', 'Limerick, Ireland', 'Belfast, Northern Ireland', 'Derry, Northern Ireland', 'Glasgow, Scotland', 'Aberdeen, Scotland', 'Dundee, Scotland', 'Inverness, Scotland'],
  england: 6,
  wales: 4,
  early: 1.1,
};

const southAsian: Community = {
  name: 'south asian',
  male: sameInEveryEra([
    'Mohammed', 'Muhammad', 'Ahmed', 'Ali', 'Hassan', 'Imran', 'Bilal', 'Zain', 'Ibrahim', 'Yusuf',
    'Omar', 'Tariq', 'Asif', 'Shahid', 'Rajesh', 'Sanjay', 'Vijay', 'Amit', 'Arjun', 'Rohan',
    'Ravi', 'Sunil', 'Anil', 'Deepak', 'Harpreet', 'Gurpreet', 'Jaspal', 'Manjit', 'Sukhwinder', 'Rajinder',
    'Aarav', 'Dev', 'Kabir', 'Faisal', 'Junaid', 'Rizwan', 'Abdul', 'Nadeem', 'Ayaan', 'Rayyan',
  ]),
  female: sameInEveryEra([
    'Fatima', 'Aisha', 'Ayesha', 'Zainab', 'Maryam', 'Amina', 'Hafsa', 'Sana', 'Nadia', 'Farah',
    'Shabana', 'Nasreen', 'Rukhsana', 'Parveen', 'Yasmin', 'Priya', 'Anjali', 'Sunita', 'Neha', 'Pooja',
    'Kavita', 'Meera', 'Anita', 'Asha', 'Deepa', 'Simran', 'Harleen', 'Jaspreet', 'Manpreet', 'Navdeep',
    'Kiran', 'Sonia', 'Aaliyah', 'Inaya', 'Anaya', 'Zara', 'Alisha', 'Sadia', 'Shazia', 'Gurleen',
  ]),
  surnames: [
    'Khan', 'Ahmed', 'Hussain', 'Ali', 'Patel', 'Begum', 'Shah', 'Iqbal', 'Akhtar', 'Mahmood',
    'Rahman', 'Islam', 'Kaur', 'Singh', 'Miah', 'Uddin', 'Chowdhury', 'Hossain', 'Sandhu', 'Gill',
    'Dhillon', 'Sidhu', 'Bains', 'Sharma', 'Gupta', 'Kumar', 'Mistry', 'Chauhan', 'Parmar', 'Joshi',
    'Desai', 'Mehta', 'Nair', 'Pillai', 'Menon', 'Qureshi', 'Malik', 'Butt', 'Raja', 'Bibi',
    'Anwar', 'Aslam', 'Javed', "D'Souza", "D'Silva", "D'Cruz", "D'Costa", 'Fernandes', 'Rodrigues', 'Lad',
  ],
  abroad: ['Lahore, Pakistan', 'Mirpur, Pakistan', 'Karachi, Pakistan', 'Rawalpindi, Pakistan', 'Sylhet, Bangladesh', 'Dhaka, Bangladesh', 'Amritsar, India', 'Jalandhar, India', 'Ahmedabad, India', 'Mumbai, India', 'Goa, India', 'Kerala, India', 'Nairobi, Kenya', 'Kampala, Uganda', 'Colombo, Sri Lanka'],
  england: 7.5,
  wales: 2,
  early: 0.15,
};

const africanCaribbean: Community = {
  name: 'african and caribbean',
  male: sameInEveryEra([
    'Kwame', 'Kofi', 'Kwabena', 'Yaw', 'Chukwuemeka', 'Chinedu', 'Emeka', 'Obinna', 'Oluwaseun', 'Tunde',
    'Femi', 'Segun', 'Kayode', 'Ade', 'Delroy', 'Winston', 'Leroy', 'Everton', 'Clinton', 'Errol',
    'Desmond', 'Lloyd', 'Marcus', 'Jerome', 'Tyrone', 'Andre', 'Kareem', 'Dwayne', 'Jermaine', 'Nathaniel',
  ]),
  female: sameInEveryEra([
    'Abena', 'Akua', 'Ama', 'Adwoa', 'Esi', 'Chiamaka', 'Ngozi', 'Chidinma', 'Adaeze', 'Ifeoma',
    'Funmilayo', 'Folasade', 'Yetunde', 'Bukola', 'Kemi', 'Tolani', 'Blessing', 'Precious', 'Marcia', 'Paulette',
    'Hyacinth', 'Beverley', 'Janice', 'Claudette', 'Shanice', 'Tanisha', 'Jade', 'Grace', 'Patience', 'Comfort',
  ]),
  surnames: [
    'Campbell', 'Clarke', 'Brown', 'Williams', 'Thompson', 'Robinson', 'Francis', 'Henry', 'Lewis', 'Grant',
    'Johnson', 'Bailey', 'Reid', 'Gordon', 'Samuels', 'Forbes', 'McKenzie', 'Okafor', 'Okonkwo', 'Adeyemi',
    'Adebayo', 'Oluwole', 'Mensah', 'Owusu', 'Boateng', 'Asante', 'Osei', 'Appiah', 'Nwosu', 'Eze',
    'Obi', 'Afolabi', 'Balogun', 'Ogunleye', 'Danso', 'Agyeman', 'Bankole', 'Chukwu', 'Adewale', 'Oduya',
  ],
  abroad: ['Kingston, Jamaica', 'Montego Bay, Jamaica', 'Port of Spain, Trinidad', 'Bridgetown, Barbados', 'Georgetown, Guyana', 'Lagos, Nigeria', 'Ibadan, Nigeria', 'Enugu, Nigeria', 'Accra, Ghana', 'Kumasi, Ghana', 'Harare, Zimbabwe', 'Freetown, Sierra Leone'],
  england: 4,
  wales: 1,
  early: 0.1,
};

const easternEuropean: Community = {
  name: 'eastern european',
  male: sameInEveryEra([
    'Piotr', 'Krzysztof', 'Tomasz', 'Paweł', 'Michał', 'Łukasz', 'Marcin', 'Jakub', 'Kacper', 'Bartłomiej',
    'Grzegorz', 'Wojciech', 'Mateusz', 'Szymon', 'Adam', 'Andrzej', 'Marek', 'Dawid', 'Jan', 'Stanisław',
    'Andrei', 'Mihai', 'Ionuț', 'Vasile', 'Darius', 'Tomas', 'Jonas', 'Mantas',
  ]),
  female: sameInEveryEra([
    'Anna', 'Agnieszka', 'Katarzyna', 'Małgorzata', 'Magdalena', 'Joanna', 'Monika', 'Ewa', 'Zofia', 'Natalia',
    'Aleksandra', 'Justyna', 'Karolina', 'Dorota', 'Marta', 'Paulina', 'Weronika', 'Wiktoria', 'Zuzanna', 'Oliwia',
    'Ioana', 'Elena', 'Andreea', 'Gabriela', 'Ieva', 'Rūta', 'Kristina', 'Laura',
  ]),
  surnames: [
    'Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak',
    'Dąbrowski', 'Kozłowski', 'Jankowski', 'Mazur', 'Kwiatkowski', 'Krawczyk', 'Piotrowski', 'Grabowski', 'Nowakowski', 'Pawłowski',
    'Michalski', 'Zając', 'Król', 'Wieczorek', 'Popescu', 'Ionescu', 'Popa', 'Kazlauskas', 'Petrauskas', 'Jankauskas',
  ],
  abroad: ['Kraków, Poland', 'Warszawa, Poland', 'Wrocław, Poland', 'Gdańsk, Poland', 'Poznań, Poland', 'Łódź, Poland', 'Bucureşti, Romania', 'Iaşi, Romania', 'Vilnius, Lithuania', 'Kaunas, Lithuania', 'Rīga, Latvia'],
  england: 2.5,
  wales: 1.5,
  early: 0.2,
};

const westernEuropean: Community = {
  name: 'western european',
  male: sameInEveryEra([
    'José', 'João', 'Luís', 'André', 'Sérgio', 'Martín', 'Andrés', 'Nicolás', 'Tomás', 'Joaquín',
    'Rubén', 'Álvaro', 'Jérôme', 'François', 'Hervé', 'Loïc', 'René', 'Léon', 'Mathéo', 'Pierre',
    'Jean-Luc', 'Giuseppe', 'Marco', 'Luca', 'Matteo', 'Niccolò', 'Jürgen', 'Jörg', 'Klaus', 'Stefan',
    'Søren', 'Bjørn', 'Lars', 'Henrik', 'Anders', 'Åke', 'Nikolaos', 'Giorgos', 'Andreas', 'Christos',
  ]),
  female: sameInEveryEra([
    'Chloé', 'Zoé', 'Léa', 'Hélène', 'Amélie', 'Céline', 'Mélanie', 'Anaïs', 'Gaëlle', 'Noémie',
    'Élodie', 'Marie-Claire', 'Anne-Sophie', 'María', 'Lucía', 'Sofía', 'Inés', 'Begoña', 'Mónica', 'Inês',
    'Patrícia', 'Conceição', 'Giulia', 'Francesca', 'Chiara', 'Martina', 'Ingrid', 'Åsa', 'Sigrid', 'Astrid',
    'Solveig', 'Mette', 'Birgit', 'Ursula', 'Heike', 'Eleni', 'Maria', 'Sophia', 'Katerina', 'Dimitra',
  ]),
  surnames: [
    'García', 'Fernández', 'Rodríguez', 'López', 'Martínez', 'Pérez', 'González', 'Sánchez', 'Núñez', 'Jiménez',
    'Silva', 'Santos', 'Ferreira', 'Pereira', 'Gonçalves', 'Sousa', 'Rossi', 'Russo', 'Esposito', 'Bianchi',
    'Romano', 'Colombo', 'Müller', 'Schröder', 'Schäfer', 'Köhler', 'Becker', 'Dubois', 'Lefèvre', 'Bélanger',
    'Girard', 'Moreau', 'Mercier', 'Rousseau', 'Jørgensen', 'Søndergaard', 'Andersson', 'Lindqvist', 'Papadopoulos', 'Georgiou',
  ],
  abroad: ['Lisboa, Portugal', 'Porto, Portugal', 'Funchal, Madeira', 'Madrid, Spain', 'Sevilla, Spain', 'Lyon, France', 'Paris, France', 'Napoli, Italy', 'Milano, Italy', 'München, Germany', 'Köln, Germany', 'København, Denmark', 'Göteborg, Sweden', 'Bergen, Norway', 'Nicosia, Cyprus', 'Athína, Greece'],
  england: 2,
  wales: 1,
  early: 0.4,
};

const eastAsian: Community = {
  name: 'east asian',
  male: sameInEveryEra([
    'Wei', 'Jun', 'Hao', 'Jian', 'Ming', 'Kai', 'Chun', 'Ka-Ho', 'Chi-Wai', 'Kin-Man',
    'Hiroshi', 'Kenji', 'Takeshi', 'Minh', 'Tuan', 'Anh', 'Duc', 'Hoang',
  ]),
  female: sameInEveryEra([
    'Mei', 'Li', 'Xin', 'Ying', 'Yan', 'Hui', 'Jing', 'Lan', 'Wing-Yee', 'Ka-Yan',
    'Hoi-Yan', 'Yuki', 'Akiko', 'Hana', 'Linh', 'Thu', 'Mai', 'Ngoc',
  ]),
  surnames: [
    'Chen', 'Wang', 'Li', 'Zhang', 'Liu', 'Wong', 'Chan', 'Lee', 'Cheung', 'Lam',
    'Leung', 'Ng', 'Ho', 'Tang', 'Yip', 'Nguyen', 'Tran', 'Pham', 'Tanaka', 'Kim',
  ],
  abroad: ['Hong Kong', 'Kowloon, Hong Kong', 'Guangzhou, China', 'Shanghai, China', 'Beijing, China', 'Kuala Lumpur, Malaysia', 'Singapore', 'Ho Chi Minh City, Vietnam', 'Tokyo, Japan', 'Seoul, South Korea'],
  england: 1,
  wales: 0.5,
  early: 0.2,
};

const middleEastern: Community = {
  name: 'middle eastern and east african',
  male: sameInEveryEra([
    'Mohamed', 'Abdullahi', 'Abdirahman', 'Hassan', 'Hussein', 'Ahmed', 'Mustafa', 'Mehmet', 'Emre', 'Murat',
    'Yusuf', 'Karim', 'Khalid', 'Omar', 'Samir', 'Amir', 'Reza', 'Dara', 'Hamza', 'Kemal',
  ]),
  female: sameInEveryEra([
    'Fadumo', 'Hodan', 'Amina', 'Khadija', 'Sahra', 'Hawa', 'Ayşe', 'Elif', 'Zeynep', 'Fatma',
    'Layla', 'Noor', 'Mariam', 'Rania', 'Leila', 'Samira', 'Dina', 'Shirin', 'Hana', 'Yasmin',
  ]),
  surnames: [
    'Mohamed', 'Abdi', 'Ahmed', 'Hassan', 'Farah', 'Warsame', 'Jama', 'Osman', 'Yılmaz', 'Kaya',
    'Demir', 'Şahin', 'Çelik', 'Öztürk', 'Aydın', 'Arslan', 'Hosseini', 'Rahimi', 'Karimi', 'Haddad',
    'Khalil', 'Nasser', 'Saleh', 'Aziz', 'Hamid',
  ],
  abroad: ['Mogadishu, Somalia', 'Hargeisa, Somaliland', 'Istanbul, Turkey', 'İzmir, Turkey', 'Baghdad, Iraq', 'Erbil, Iraq', 'Tehran, Iran', 'Cairo, Egypt', 'Aden, Yemen', 'Khartoum, Sudan', 'Asmara, Eritrea'],
  england: 1.5,
  wales: 1,
  early: 0.15,
};

/** Every community, the first (English) the one used when a name is borrowed across communities. */
export const COMMUNITIES: readonly Community[] = [
  english,
  welsh,
  irishScottish,
  southAsian,
  africanCaribbean,
  easternEuropean,
  westernEuropean,
  eastAsian,
  middleEastern,
];

/**
 * Plausible surnames that none of the pools above holds (nor any join of
 * two of them): searches for them find nothing, for the misses of a search sample.
 */
export const MISS_SURNAMES: readonly string[] = [
  'Quarmby', 'Fothergill', 'Sowerbutts', 'Gledhill', 'Huddlestone', 'Wragg', 'Pennyfeather', 'Allsopp', 'Blenkinsop', 'Cattermole',
  'Dimmock', 'Eccleston', 'Fazakerley', 'Gathercole', 'Hollingworth', 'Illingworth', 'Jolliffe', 'Kettlewell', 'Loxley', 'Mottershead',
  'Nutter', 'Pickersgill', 'Rudd', 'Scattergood', 'Tattersall', 'Umpleby', 'Verity', 'Wadsworth', 'Yeadon', 'Attwood',
  'Bagshaw', 'Crossland', 'Duckworth', 'Earnshaw', 'Fairclough', 'Gillott', 'Hebblethwaite', 'Ingham', 'Jowett', 'Ketteridge',
];

/** Forms of address, for the rare records that state one. */
export const MALE_PREFIXES: readonly string[] = ['Mr', 'Mr', 'Mr', 'Dr', 'Revd', 'Sir'];
export const FEMALE_PREFIXES: readonly string[] = ['Mrs', 'Miss', 'Ms', 'Mrs', 'Dr', 'Revd'];
export const SUFFIXES: readonly string[] = ['Jr', 'Sr', 'II', 'III', 'MBE', 'OBE', 'BSc', 'MA', 'PhD', 'QC', 'JP'];

// ---------------------------------------------------------------------------
// Places
// ---------------------------------------------------------------------------

export interface District {
  /** Registration district. */
  readonly name: string;
  /** Administrative area: county, metropolitan county, unitary authority or Welsh principal area. */
  readonly area: string;
  /** Towns of the district; each is also the name of a registration sub-district. */
  readonly towns: readonly string[];
  readonly wales: boolean;
  /** Rough population, in hundreds of thousands: how often the district is chosen. */
  readonly weight: number;
}

const en = (name: string, area: string, weight: number, ...towns: string[]): District => ({
  name,
  area,
  towns: towns.length ? towns : [name],
  wales: false,
  weight,
});
const cy = (name: string, area: string, weight: number, ...towns: string[]): District => ({
  name,
  area,
  towns: towns.length ? towns : [name],
  wales: true,
  weight,
});

export const DISTRICTS: readonly District[] = [
  // London
  en('Westminster', 'Greater London', 2.6, 'Westminster', 'Marylebone', 'Paddington', 'Pimlico'),
  en('Camden', 'Greater London', 2.7, 'Camden Town', 'Hampstead', 'Holborn', 'Kentish Town'),
  en('Islington', 'Greater London', 2.4, 'Islington', 'Highbury', 'Holloway'),
  en('Hackney', 'Greater London', 2.6, 'Hackney', 'Stoke Newington', 'Shoreditch', 'Dalston'),
  en('Tower Hamlets', 'Greater London', 3.1, 'Stepney', 'Bethnal Green', 'Poplar', 'Whitechapel'),
  en('Newham', 'Greater London', 3.5, 'East Ham', 'West Ham', 'Stratford', 'Forest Gate'),
  en('Southwark', 'Greater London', 3.1, 'Southwark', 'Camberwell', 'Peckham', 'Bermondsey'),
  en('Lambeth', 'Greater London', 3.2, 'Lambeth', 'Brixton', 'Streatham', 'Clapham'),
  en('Lewisham', 'Greater London', 3.0, 'Lewisham', 'Deptford', 'Catford'),
  en('Greenwich', 'Greater London', 2.9, 'Greenwich', 'Woolwich', 'Eltham'),
  en('Croydon', 'Greater London', 3.9, 'Croydon', 'Purley', 'Thornton Heath'),
  en('Barnet', 'Greater London', 3.9, 'Barnet', 'Finchley', 'Hendon', 'Edgware'),
  en('Brent', 'Greater London', 3.4, 'Wembley', 'Willesden', 'Kilburn'),
  en('Ealing', 'Greater London', 3.7, 'Ealing', 'Acton', 'Southall'),
  en('Hounslow', 'Greater London', 2.9, 'Hounslow', 'Chiswick', 'Feltham'),
  en('Haringey', 'Greater London', 2.6, 'Tottenham', 'Hornsey', 'Wood Green'),
  en('Enfield', 'Greater London', 3.3, 'Enfield', 'Edmonton', 'Southgate'),
  en('Wandsworth', 'Greater London', 3.3, 'Wandsworth', 'Battersea', 'Putney', 'Tooting'),
  en('Kensington and Chelsea', 'Greater London', 1.4, 'Kensington', 'Chelsea'),
  en('Hammersmith and Fulham', 'Greater London', 1.8, 'Hammersmith', 'Fulham'),
  en('Redbridge', 'Greater London', 3.1, 'Ilford', 'Woodford', 'Wanstead'),
  en('Waltham Forest', 'Greater London', 2.8, 'Walthamstow', 'Leyton', 'Chingford'),
  en('Bromley', 'Greater London', 3.3, 'Bromley', 'Beckenham', 'Orpington'),
  en('Harrow', 'Greater London', 2.6, 'Harrow', 'Pinner', 'Wealdstone'),
  en('Hillingdon', 'Greater London', 3.1, 'Uxbridge', 'Hayes', 'Ruislip'),
  // North of England
  en('Manchester', 'Greater Manchester', 5.5, 'Manchester', 'Didsbury', 'Wythenshawe', 'Moss Side'),
  en('Salford', 'Greater Manchester', 2.7, 'Salford', 'Eccles', 'Swinton'),
  en('Bolton', 'Greater Manchester', 2.9, 'Bolton', 'Farnworth', 'Horwich'),
  en('Wigan', 'Greater Manchester', 3.3, 'Wigan', 'Leigh', 'Ashton-in-Makerfield'),
  en('Stockport', 'Greater Manchester', 2.9, 'Stockport', 'Cheadle', 'Marple'),
  en('Oldham', 'Greater Manchester', 2.4, 'Oldham', 'Royton', 'Saddleworth'),
  en('Rochdale', 'Greater Manchester', 2.2, 'Rochdale', 'Heywood', 'Middleton'),
  en('Liverpool', 'Merseyside', 4.9, 'Liverpool', 'Walton', 'Toxteth', 'West Derby'),
  en('Wirral', 'Merseyside', 3.2, 'Birkenhead', 'Wallasey', 'West Kirby'),
  en('Sefton', 'Merseyside', 2.8, 'Southport', 'Bootle', 'Crosby'),
  en('Leeds', 'West Yorkshire', 8.0, 'Leeds', 'Morley', 'Otley', 'Wetherby'),
  en('Bradford', 'West Yorkshire', 5.4, 'Bradford', 'Keighley', 'Shipley', 'Ilkley'),
  en('Kirklees', 'West Yorkshire', 4.3, 'Huddersfield', 'Dewsbury', 'Batley'),
  en('Calderdale', 'West Yorkshire', 2.1, 'Halifax', 'Brighouse', 'Todmorden', 'Hebden Bridge'),
  en('Wakefield', 'West Yorkshire', 3.5, 'Wakefield', 'Pontefract', 'Castleford'),
  en('Sheffield', 'South Yorkshire', 5.8, 'Sheffield', 'Stocksbridge', 'Hillsborough'),
  en('Doncaster', 'South Yorkshire', 3.1, 'Doncaster', 'Thorne', 'Mexborough'),
  en('Barnsley', 'South Yorkshire', 2.4, 'Barnsley', 'Penistone'),
  en('Kingston upon Hull', 'Kingston upon Hull', 2.6, 'Hull'),
  en('York', 'York', 2.0, 'York'),
  en('North Yorkshire', 'North Yorkshire', 6.1, 'Harrogate', 'Scarborough', 'Northallerton', 'Skipton', 'Whitby'),
  en('Newcastle upon Tyne', 'Tyne and Wear', 3.0, 'Newcastle upon Tyne', 'Gosforth', 'Walker'),
  en('Sunderland', 'Tyne and Wear', 2.8, 'Sunderland', 'Washington', 'Houghton-le-Spring'),
  en('Gateshead', 'Tyne and Wear', 2.0, 'Gateshead', 'Blaydon'),
  en('County Durham', 'County Durham', 5.2, 'Durham', 'Bishop Auckland', 'Consett', 'Chester-le-Street', 'Peterlee'),
  en('Middlesbrough', 'Middlesbrough', 1.4, 'Middlesbrough'),
  en('Cumbria', 'Cumbria', 5.0, 'Carlisle', 'Kendal', 'Barrow-in-Furness', 'Workington', 'Penrith'),
  en('Lancashire', 'Lancashire', 6.0, 'Preston', 'Lancaster', 'Chorley', 'Burnley', 'Ormskirk'),
  en('Blackpool', 'Blackpool', 1.4, 'Blackpool'),
  en('Blackburn with Darwen', 'Blackburn with Darwen', 1.5, 'Blackburn', 'Darwen'),
  en('Cheshire West and Chester', 'Cheshire West and Chester', 3.4, 'Chester', 'Ellesmere Port', 'Northwich'),
  en('Cheshire East', 'Cheshire East', 3.8, 'Crewe', 'Macclesfield', 'Congleton', 'Nantwich'),
  // Midlands
  en('Birmingham', 'West Midlands', 11.4, 'Birmingham', 'Erdington', 'Edgbaston', 'Sutton Coldfield', 'Yardley'),
  en('Coventry', 'West Midlands', 3.4, 'Coventry'),
  en('Wolverhampton', 'West Midlands', 2.6, 'Wolverhampton', 'Bilston'),
  en('Sandwell', 'West Midlands', 3.3, 'West Bromwich', 'Oldbury', 'Smethwick'),
  en('Dudley', 'West Midlands', 3.2, 'Dudley', 'Stourbridge', 'Halesowen'),
  en('Walsall', 'West Midlands', 2.8, 'Walsall', 'Bloxwich'),
  en('Stoke-on-Trent', 'Stoke-on-Trent', 2.6, 'Hanley', 'Burslem', 'Longton', 'Stoke-on-Trent'),
  en('Staffordshire', 'Staffordshire', 8.7, 'Stafford', 'Lichfield', 'Burton upon Trent', 'Tamworth', 'Leek'),
  en('Derby', 'Derby', 2.6, 'Derby'),
  en('Derbyshire', 'Derbyshire', 8.0, 'Chesterfield', 'Buxton', 'Matlock', 'Ilkeston'),
  en('Nottingham', 'Nottingham', 3.2, 'Nottingham', 'Bulwell'),
  en('Nottinghamshire', 'Nottinghamshire', 8.3, 'Mansfield', 'Newark', 'Worksop', 'Beeston'),
  en('Leicester', 'Leicester', 3.7, 'Leicester'),
  en('Leicestershire', 'Leicestershire', 7.1, 'Loughborough', 'Hinckley', 'Melton Mowbray', 'Market Harborough'),
  en('Lincolnshire', 'Lincolnshire', 7.7, 'Lincoln', 'Boston', 'Grantham', 'Skegness', 'Spalding'),
  en('Northamptonshire', 'Northamptonshire', 7.6, 'Northampton', 'Kettering', 'Corby', 'Wellingborough'),
  en('Warwickshire', 'Warwickshire', 6.0, 'Warwick', 'Nuneaton', 'Rugby', 'Stratford-upon-Avon'),
  en('Worcestershire', 'Worcestershire', 6.0, 'Worcester', 'Kidderminster', 'Redditch', 'Malvern'),
  en('Herefordshire', 'Herefordshire', 1.9, 'Hereford', 'Leominster', 'Ross-on-Wye'),
  en('Shropshire', 'Shropshire', 3.2, 'Shrewsbury', 'Oswestry', 'Ludlow', 'Bridgnorth'),
  en('Telford and Wrekin', 'Telford and Wrekin', 1.9, 'Telford', 'Wellington'),
  // East of England
  en('Norfolk', 'Norfolk', 9.2, 'Norwich', "King's Lynn", 'Great Yarmouth', 'Thetford', 'Cromer'),
  en('Suffolk', 'Suffolk', 7.6, 'Ipswich', 'Bury St Edmunds', 'Lowestoft', 'Sudbury'),
  en('Cambridgeshire', 'Cambridgeshire', 6.8, 'Cambridge', 'Ely', 'Huntingdon', 'Wisbech'),
  en('Peterborough', 'Peterborough', 2.1, 'Peterborough'),
  en('Essex', 'Essex', 15.0, 'Chelmsford', 'Colchester', 'Basildon', 'Harlow', 'Brentwood'),
  en('Southend-on-Sea', 'Southend-on-Sea', 1.8, 'Southend-on-Sea', 'Leigh-on-Sea'),
  en('Hertfordshire', 'Hertfordshire', 12.0, "St Albans", 'Watford', 'Stevenage', 'Hertford', "Bishop's Stortford"),
  en('Luton', 'Luton', 2.2, 'Luton'),
  en('Bedford', 'Bedford', 1.8, 'Bedford', 'Kempston'),
  en('Milton Keynes', 'Milton Keynes', 2.9, 'Milton Keynes', 'Bletchley'),
  // South of England
  en('Kent', 'Kent', 15.8, 'Maidstone', 'Canterbury', 'Ashford', 'Tunbridge Wells', 'Folkestone', 'Margate'),
  en('Medway', 'Medway', 2.8, 'Chatham', 'Gillingham', 'Rochester'),
  en('Surrey', 'Surrey', 12.0, 'Guildford', 'Woking', 'Epsom', 'Reigate', 'Farnham'),
  en('East Sussex', 'East Sussex', 5.5, 'Eastbourne', 'Hastings', 'Lewes', 'Bexhill-on-Sea'),
  en('Brighton and Hove', 'Brighton and Hove', 2.8, 'Brighton', 'Hove'),
  en('West Sussex', 'West Sussex', 8.8, 'Chichester', 'Crawley', 'Worthing', 'Horsham', 'Bognor Regis'),
  en('Hampshire', 'Hampshire', 14.0, 'Winchester', 'Basingstoke', 'Aldershot', 'Andover', 'Fareham'),
  en('Southampton', 'Southampton', 2.5, 'Southampton'),
  en('Portsmouth', 'Portsmouth', 2.1, 'Portsmouth', 'Southsea'),
  en('Isle of Wight', 'Isle of Wight', 1.4, 'Newport', 'Ryde', 'Cowes'),
  en('Reading', 'Reading', 1.6, 'Reading'),
  en('Oxfordshire', 'Oxfordshire', 7.0, 'Oxford', 'Banbury', 'Abingdon', 'Witney'),
  en('Buckinghamshire', 'Buckinghamshire', 5.5, 'Aylesbury', 'High Wycombe', 'Amersham'),
  en('City of Bristol', 'City of Bristol', 4.7, 'Bristol', 'Clifton', 'Bedminster'),
  en('Bath and North East Somerset', 'Bath and North East Somerset', 1.9, 'Bath', 'Keynsham'),
  en('Somerset', 'Somerset', 5.7, 'Taunton', 'Yeovil', 'Bridgwater', 'Frome', 'Wells'),
  en('Gloucestershire', 'Gloucestershire', 6.4, 'Gloucester', 'Cheltenham', 'Stroud', 'Cirencester'),
  en('Wiltshire', 'Wiltshire', 5.1, 'Salisbury', 'Chippenham', 'Trowbridge', 'Devizes'),
  en('Swindon', 'Swindon', 2.3, 'Swindon'),
  en('Dorset', 'Dorset', 3.8, 'Dorchester', 'Weymouth', 'Bridport', 'Sherborne'),
  en('Bournemouth, Christchurch and Poole', 'Bournemouth, Christchurch and Poole', 4.0, 'Bournemouth', 'Poole', 'Christchurch'),
  en('Devon', 'Devon', 8.1, 'Exeter', 'Barnstaple', 'Exmouth', 'Newton Abbot', 'Tiverton'),
  en('Plymouth', 'Plymouth', 2.6, 'Plymouth', 'Devonport'),
  en('Torbay', 'Torbay', 1.4, 'Torquay', 'Paignton', 'Brixham'),
  en('Cornwall', 'Cornwall', 5.7, 'Truro', 'Penzance', 'Bodmin', 'St Austell', 'Falmouth', 'Redruth'),
  // Wales
  cy('Cardiff', 'Cardiff', 3.6, 'Cardiff', 'Llandaff', 'Whitchurch'),
  cy('Swansea', 'Swansea', 2.4, 'Swansea', 'Gorseinon', 'Mumbles'),
  cy('Newport', 'Newport', 1.6, 'Newport', 'Caerleon'),
  cy('Vale of Glamorgan', 'Vale of Glamorgan', 1.3, 'Barry', 'Penarth', 'Cowbridge'),
  cy('Rhondda Cynon Taf', 'Rhondda Cynon Taf', 2.4, 'Pontypridd', 'Aberdare', 'Tonypandy', 'Treorchy'),
  cy('Merthyr Tydfil', 'Merthyr Tydfil', 0.6, 'Merthyr Tydfil'),
  cy('Caerphilly', 'Caerphilly', 1.8, 'Caerphilly', 'Bargoed', 'Blackwood'),
  cy('Bridgend', 'Bridgend', 1.5, 'Bridgend', 'Maesteg', 'Porthcawl'),
  cy('Neath Port Talbot', 'Neath Port Talbot', 1.4, 'Neath', 'Port Talbot'),
  cy('Carmarthenshire', 'Carmarthenshire', 1.9, 'Carmarthen', 'Llanelli', 'Ammanford'),
  cy('Pembrokeshire', 'Pembrokeshire', 1.2, 'Haverfordwest', 'Pembroke', 'Tenby', 'Fishguard'),
  cy('Ceredigion', 'Ceredigion', 0.7, 'Aberystwyth', 'Cardigan', 'Lampeter'),
  cy('Powys', 'Powys', 1.3, 'Newtown', 'Brecon', 'Llandrindod Wells', 'Welshpool'),
  cy('Gwynedd', 'Gwynedd', 1.2, 'Caernarfon', 'Bangor', 'Pwllheli', 'Dolgellau', 'Blaenau Ffestiniog'),
  cy('Isle of Anglesey', 'Isle of Anglesey', 0.7, 'Holyhead', 'Llangefni', 'Beaumaris'),
  cy('Conwy', 'Conwy', 1.2, 'Llandudno', 'Colwyn Bay', 'Conwy', 'Llanrwst'),
  cy('Denbighshire', 'Denbighshire', 1.0, 'Rhyl', 'Denbigh', 'Ruthin', 'Prestatyn'),
  cy('Flintshire', 'Flintshire', 1.6, 'Mold', 'Flint', 'Buckley', 'Holywell'),
  cy('Wrexham', 'Wrexham', 1.4, 'Wrexham', 'Chirk', 'Gresford'),
  cy('Monmouthshire', 'Monmouthshire', 0.9, 'Monmouth', 'Abergavenny', 'Chepstow'),
  cy('Torfaen', 'Torfaen', 0.9, 'Pontypool', 'Cwmbran'),
  cy('Blaenau Gwent', 'Blaenau Gwent', 0.7, 'Ebbw Vale', 'Tredegar', 'Abertillery'),
];

export const STREETS: readonly string[] = [
  'High Street', 'Station Road', 'Church Street', 'Main Street', 'Park Road', 'Church Lane', 'Victoria Road', 'Green Lane', 'Manor Road', 'Church Road',
  'Park Avenue', 'The Avenue', 'The Crescent', 'Queens Road', 'New Road', 'Grange Road', 'Kings Road', 'Highfield Road', 'Mill Lane', 'Alexandra Road',
  'School Lane', 'North Street', 'Stanley Road', 'Chester Road', 'London Road', 'York Road', 'Springfield Road', 'Windsor Road', 'Albert Road', 'Chapel Street',
  'West Street', 'South Street', 'Richmond Road', 'Broadway', 'Mill Road', 'Cromwell Road', 'Moor Lane', 'Station Street', 'Queen Street', 'King Street',
  'Orchard Close', 'Meadow View', 'Beech Grove', 'Oak Avenue', 'Elm Grove', 'Willow Close', 'Ash Grove', 'Maple Drive', 'Chestnut Avenue', 'Rowan Way',
  'The Close', 'The Green', 'Field Lane', 'Hall Lane', 'Back Lane', 'Market Street', 'Bridge Street', 'Water Lane', 'Mount Pleasant', 'Hillside',
  'Clarence Road', 'Waterloo Road', 'Nelson Street', 'Wellington Road', 'Gladstone Street', 'Cobden Street', 'Peel Street', 'Derby Road', 'Lime Street', 'Cemetery Road',
  'Coronation Street', 'Jubilee Road', 'Regent Street', 'Grove Road', 'Rectory Lane', 'Vicarage Road', 'Farm Close', 'Brook Street', 'Quarry Lane', 'Canal Street',
  "St John's Road", "St Mary's Road", "Bishop's Walk", "Queen's Drive", "King's Avenue", 'Lark Rise', 'Heather Close', 'Foxglove Way', 'Primrose Hill', 'Bluebell Close',
  'Cedar Road', 'Hawthorn Avenue', 'Sycamore Close', 'Holly Bank', 'Laurel Grove', 'Fairfield Road', 'Westfield Avenue', 'Woodland Rise', 'Birch Lane', 'Poplar Street',
];

export const WELSH_STREETS: readonly string[] = [
  'Heol y Parc', 'Stryd Fawr', 'Ffordd yr Orsaf', 'Heol Newydd', 'Maes y Coed', 'Bryn Teg', 'Heol yr Eglwys', 'Tan y Bryn', 'Ffordd y Capel', 'Heol y Bont',
  'Stryd y Castell', 'Rhodfa’r Môr', 'Lôn Las', 'Cae Glas', 'Pen y Bryn', 'Heol Awel', 'Maes yr Haf', 'Ffordd Penrhos', 'Heol Gwyn', 'Stryd y Farchnad',
];

/** Building names for flats and for the rare named house. */
export const BUILDINGS: readonly string[] = [
  'Court', 'House', 'Mansions', 'Lodge', 'Heights', 'Gardens', 'Place', 'Point', 'Tower', 'Wharf',
];
export const HOUSE_NAMES: readonly string[] = [
  'Rose Cottage', 'The Cottage', 'Ivy House', 'The Old Rectory', 'Orchard House', 'The Laurels', 'Woodlands', 'Fairview', 'The Bungalow', 'Meadow Cottage',
  'Ty Gwyn', 'Bryn Awel', 'Hafod', 'The Old School House', 'Mill House',
];

/** Hospitals are named after their town with one of these; a few Welsh ones in Welsh. */
export const HOSPITALS: readonly string[] = [
  'General Hospital', 'Royal Infirmary', 'District General Hospital', 'Community Hospital', 'University Hospital', 'City Hospital', 'Royal Hospital',
];
export const CARE_HOMES: readonly string[] = [
  'Nursing Home', 'Care Home', 'Residential Home', 'Hospice', 'House Care Centre',
];
export const CARE_HOME_NAMES: readonly string[] = [
  'Beechwood', 'The Willows', 'Oakleigh', 'Meadowbank', 'Ashgrove', 'Hillcrest', 'Rosedale', 'Fernlea', 'Brookside', 'Elmhurst',
  "St Catherine's", "St Joseph's", 'Highfield', 'Lynwood', 'Cherry Trees',
];

export type Denomination = 'anglican' | 'catholic' | 'free church' | 'welsh chapel' | 'orthodox' | 'other faith';

/**
 * Places of worship registered for marriages ("St Mary's Church, Town"), each
 * with its parish dedication when it is a parish church ("St Mary, Town").
 */
export const CHURCHES: readonly (readonly [name: string, parish: string | null, denomination: Denomination])[] = [
  ["St Mary's Church", 'St Mary', 'anglican'],
  ["St Michael's Church", 'St Michael', 'anglican'],
  ['All Saints Church', 'All Saints', 'anglican'],
  ["St Peter's Church", 'St Peter', 'anglican'],
  ['Holy Trinity Church', 'Holy Trinity', 'anglican'],
  ["St John's Church", 'St John the Baptist', 'anglican'],
  ["St Andrew's Church", 'St Andrew', 'anglican'],
  ['Christ Church', 'Christ Church', 'anglican'],
  ["St James's Church", 'St James', 'anglican'],
  ["St George's Church", 'St George', 'anglican'],
  ["St Joseph's Catholic Church", null, 'catholic'],
  ["St Patrick's Catholic Church", null, 'catholic'],
  ['Methodist Church', null, 'free church'],
  ['Baptist Church', null, 'free church'],
  ['United Reformed Church', null, 'free church'],
  ['Capel Bethel', null, 'welsh chapel'],
  ['Capel Seion', null, 'welsh chapel'],
  ['Central Mosque', null, 'other faith'],
  ['Gurdwara Sri Guru Singh Sabha', null, 'other faith'],
  ['Shree Krishna Temple', null, 'other faith'],
  ['Greek Orthodox Church of St Nicholas', null, 'orthodox'],
  ['Synagogue', null, 'other faith'],
];

/** Approved premises for civil ceremonies. */
export const VENUES: readonly string[] = [
  'The Manor House Hotel', 'The Grange', 'Town Hall', 'Assembly Rooms', 'The Old Barn', 'Guildhall', 'Castle Hotel', 'The Royal Hotel',
  'Park House', 'The Orangery', 'Country Park Visitor Centre', 'Golf Club', 'The Mill', 'Abbey Hotel', 'The Boathouse',
];

// ---------------------------------------------------------------------------
// Occupations and causes of death
// ---------------------------------------------------------------------------

export const OCCUPATIONS: ByEra<readonly string[]> = {
  classic: [
    'General labourer', 'Coal miner', 'Housewife', 'Farm labourer', 'Clerk', 'Textile worker', 'Mill worker', 'Engineer', 'Railway porter', 'Bus conductor',
    'Domestic servant', 'Dock labourer', 'Steel worker', 'Shop assistant', 'Typist', 'Telephonist', 'Milkman', 'Fitter', 'Lorry driver', 'Farmer',
    'Bricklayer', 'Carpenter', 'Painter and decorator', 'Postman', 'Police constable', 'Machinist', 'Seamstress', 'Butcher', 'Baker', 'Tailor',
    'Coal merchant', 'Blacksmith', 'Insurance agent', 'Schoolteacher', 'Nurse', 'Boilermaker', 'Fisherman', 'Printer', 'Publican', 'Soldier',
  ],
  mid: [
    'Teacher', 'Nurse', 'Sales assistant', 'Secretary', 'Electrician', 'Lorry driver', 'Plumber', 'Mechanic', 'Accountant', 'Civil servant',
    'Police officer', 'Care assistant', 'Joiner', 'Plasterer', 'Hairdresser', 'Bus driver', 'Factory worker', 'Engineer', 'Shop manager', 'Receptionist',
    'Cleaner', 'Cook', 'Builder', 'Taxi driver', 'Postman', 'Bank clerk', 'Fitter', 'Welder', 'Warehouse operative', 'Solicitor',
    'Social worker', 'Chef', 'Doctor', 'Pharmacist', 'Quantity surveyor', 'Estate agent', 'Firefighter', 'Dental nurse', 'Self-employed', 'Unemployed',
  ],
  modern: [
    'Software developer', 'Teaching assistant', 'Customer service adviser', 'Project manager', 'Care worker', 'Retail assistant', 'Nurse', 'Teacher', 'Delivery driver', 'Warehouse operative',
    'IT consultant', 'Marketing executive', 'Graphic designer', 'Paramedic', 'Physiotherapist', 'Police officer', 'Electrician', 'Plumber', 'Accountant', 'Chef',
    'Barista', 'Personal trainer', 'Student', 'Engineer', 'Civil servant', 'Hairdresser', 'Beauty therapist', 'Scaffolder', 'Lecturer', 'Solicitor',
    'Doctor', 'Pharmacist', 'Social worker', 'Recruitment consultant', 'Data analyst', 'Architect', 'Bus driver', 'Nursery nurse', 'Self-employed', 'Unemployed',
  ],
};

export const CAUSES_OF_DEATH = {
  /** In the first four weeks. */
  neonatal: [
    'Extreme prematurity', 'Respiratory distress syndrome', 'Congenital heart disease', 'Neonatal sepsis', 'Hypoxic ischaemic encephalopathy', 'Congenital anomalies',
  ],
  /** From four weeks to a year. */
  infant: [
    'Sudden infant death syndrome', 'Unascertained', 'Congenital heart disease', 'Bronchiolitis', 'Meningitis', 'Complications of prematurity',
  ],
  young: [
    'Road traffic collision; accident', 'Drug overdose; misadventure', 'Acute lymphoblastic leukaemia', 'Epilepsy', 'Asthma', 'Meningococcal septicaemia',
    'Drowning; accident', 'Fall from height; accident', 'Glioblastoma', 'Myocarditis', 'Diabetic ketoacidosis', 'Sudden cardiac death',
  ],
  adult: [
    'Myocardial infarction', 'Ischaemic heart disease', 'Carcinoma of the lung', 'Carcinoma of the bowel', 'Carcinoma of the breast', 'Carcinoma of the pancreas',
    'Alcoholic liver disease', 'Cerebrovascular accident', 'Pulmonary embolism', 'Sepsis', 'Coronary artery atheroma', 'Motor neurone disease',
    'Carcinoma of the oesophagus', 'Lymphoma', 'Road traffic collision; accident', 'Subarachnoid haemorrhage',
  ],
  elderly: [
    'Bronchopneumonia', 'Pneumonia', 'Congestive cardiac failure', 'Ischaemic heart disease', 'Myocardial infarction', 'Cerebrovascular accident',
    'Dementia', "Alzheimer's disease", 'Frailty of old age', 'Old age', 'Chronic obstructive pulmonary disease', 'Carcinoma of the lung',
    'Carcinoma of the prostate', 'Carcinoma of the bowel', 'Renal failure', 'Sepsis', "Parkinson's disease", 'Aortic stenosis',
    'Fractured neck of femur; fall', 'Hypertensive heart disease', 'Multiple organ failure', 'Aspiration pneumonia', 'Vascular dementia', 'Heart failure',
  ],
} as const;

/** Qualifications of a doctor certifying a death. */
export const DOCTOR_QUALIFICATIONS: readonly string[] = ['MB ChB', 'MB BS', 'MB BCh', 'MRCP', 'MRCGP', 'FRCP', 'BM BCh', 'MBBS'];
